import type { AgentStatus } from '@baton/gateway-api';

/** How far back the lag's trend is read. */
const TREND_WINDOW_MS = 60_000;
/** Samples, and time between the first and the last, a trend needs before it is claimed. */
const MIN_SAMPLES = 3;
const MIN_SPAN_MS = 20_000;

/** An agent whose inbox lag rose at every sample of the window. */
export interface GrowingLag {
  agent_id: string;
  from: number;
  to: number;
  seconds: number;
}

interface Sample {
  at: number;
  lag: number;
}

/**
 * Each agent's inbox lag as the overview sampled it, over the last minute: a lag that never fell and
 * rose by a tenth (at least 10 offsets) across at least 20 s of samples is growing, an agent that
 * falls behind. A single high reading is not a trend, and nothing is claimed before the samples
 * are there.
 */
export class LagTrend {
  private readonly samples = new Map<string, Sample[]>();

  observe(agents: readonly AgentStatus[], now: number): void {
    for (const agent of agents) {
      if (agent.lag === null) continue;
      const kept = (this.samples.get(agent.agent_id) ?? []).filter((sample) => now - sample.at <= TREND_WINDOW_MS);
      kept.push({ at: now, lag: agent.lag });
      this.samples.set(agent.agent_id, kept);
    }
  }

  /** The agents whose lag is growing, by agent_id. */
  growing(): GrowingLag[] {
    const found: GrowingLag[] = [];
    for (const [agentId, samples] of this.samples) {
      const first = samples[0];
      const last = samples.at(-1);
      if (first === undefined || last === undefined || samples.length < MIN_SAMPLES) continue;
      if (last.at - first.at < MIN_SPAN_MS) continue;
      const neverFell = samples.every(
        (sample, index) => index === 0 || sample.lag >= (samples[index - 1] as Sample).lag,
      );
      if (neverFell && last.lag - first.lag >= Math.max(10, first.lag / 10)) {
        found.push({
          agent_id: agentId,
          from: first.lag,
          to: last.lag,
          seconds: Math.round((last.at - first.at) / 1_000),
        });
      }
    }
    return found.sort((a, b) => a.agent_id.localeCompare(b.agent_id));
  }
}
