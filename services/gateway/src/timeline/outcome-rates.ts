import type { MinuteOutcomes } from '@baton/gateway-api';
import type { TaskEvent } from '@baton/protocol';

const MINUTE_MS = 60_000;

/**
 * Handoff outcomes per minute over the last `windowMinutes`, folded from the events topic as the
 * gateway reads it: what the overview shows as rates. Older minutes are dropped as time passes, so
 * reading a topic from its start keeps only the recent ones.
 */
/** One minute's counts: of every outcome, and by the agent that reported them. */
interface MinuteCounts {
  outcomes: Record<string, number>;
  byAgent: Map<string, Record<string, number>>;
}

function count(counts: Record<string, number>, outcome: string, by = 1): void {
  counts[outcome] = (counts[outcome] ?? 0) + by;
}

export class OutcomeRates {
  private readonly minutes = new Map<number, MinuteCounts>();

  constructor(
    readonly windowMinutes = 15,
    private readonly now: () => number = Date.now,
  ) {}

  add(event: TaskEvent): void {
    if (event.kind !== 'outcome') return;
    const minute = Math.floor(Date.parse(event.value.time) / MINUTE_MS);
    if (Number.isNaN(minute) || minute < this.oldestMinute()) return;
    let counts = this.minutes.get(minute);
    if (counts === undefined) this.minutes.set(minute, (counts = { outcomes: {}, byAgent: new Map() }));
    const { outcome, agent_id: agentId } = event.value;
    count(counts.outcomes, outcome);
    let ofAgent = counts.byAgent.get(agentId);
    if (ofAgent === undefined) counts.byAgent.set(agentId, (ofAgent = {}));
    count(ofAgent, outcome);
    this.forgetOld();
  }

  /** Every minute of the window, oldest first, a quiet one with no outcomes. */
  window(): MinuteOutcomes[] {
    this.forgetOld();
    const oldest = this.oldestMinute();
    return Array.from({ length: this.windowMinutes }, (_, index) => {
      const minute = oldest + index;
      return {
        minute: new Date(minute * MINUTE_MS).toISOString(),
        outcomes: { ...this.minutes.get(minute)?.outcomes },
      };
    });
  }

  /** Each agent's outcomes over the whole window, by the agent that reported them (the router's ROUTED included). */
  byAgent(): Map<string, Record<string, number>> {
    this.forgetOld();
    const totals = new Map<string, Record<string, number>>();
    for (const { byAgent } of this.minutes.values()) {
      for (const [agentId, outcomes] of byAgent) {
        let total = totals.get(agentId);
        if (total === undefined) totals.set(agentId, (total = {}));
        for (const [outcome, n] of Object.entries(outcomes)) count(total, outcome, n);
      }
    }
    return totals;
  }

  private oldestMinute(): number {
    return Math.floor(this.now() / MINUTE_MS) - this.windowMinutes + 1;
  }

  private forgetOld(): void {
    const oldest = this.oldestMinute();
    for (const minute of this.minutes.keys()) if (minute < oldest) this.minutes.delete(minute);
  }
}
