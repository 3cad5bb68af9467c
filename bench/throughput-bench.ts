/**
 * The throughput rows: the same N encoded handoffs, published as fast as the broker takes them,
 * through Baton (the router hop to the agent's inbox, and the full path to the agent's COMPLETED
 * outcome), then through each kafkajs relay (relay-modes.ts) over one hop and two hops.
 */
import type { OutputRecord, RecordProducer, TopicNames } from '@baton/kafka';
import { buildHandoff } from '@baton/protocol';
import { handoffRecord } from '@baton/runtime';
import type { HandoffCodec } from '@baton/wire';
import type { ArrivalObserver } from './arrival-observer.js';
import type { BenchProcesses } from './bench-processes.js';
import { waitForCount } from './deadline.js';
import { publishAll } from './publish.js';
import { RELAY_MODES, type RelayMode } from './relay-modes.js';
import { pairedSummary, type LatencySummary } from './stats.js';

/** The sender_id of the handoffs the bench publishes. */
export const BENCH_SENDER = 'bench';

/**
 * `count` STATUS_UPDATE handoffs to the agent, over `tasks` tasks (`<taskPrefix>-<n>`), encoded with
 * `codec` as records of `topic`: what the throughput rows carry, each completed by the bench agent.
 */
export function statusUpdateRecords(
  codec: HandoffCodec,
  topic: string,
  agentId: string,
  count: number,
  tasks: number,
  taskPrefix: string,
): OutputRecord[] {
  return Array.from({ length: count }, (_, i) =>
    handoffRecord(
      codec,
      topic,
      buildHandoff({
        metadata: { sender_id: BENCH_SENDER, recipient_id: agentId, task_id: `${taskPrefix}-${i % tasks}` },
        payload: { handoff_type: 'STATUS_UPDATE', data: { status: 'IN_PROGRESS', details: `step ${i}` } },
      }),
    ),
  );
}

/** The three topics of a two-hop relay chain: in → mid → out. */
export interface RelayTopics {
  in: string;
  mid: string;
  out: string;
}

export function relayTopics(prefix: string, mode: RelayMode): RelayTopics {
  const base = `${prefix}.relay.${mode}`;
  return { in: `${base}.in`, mid: `${base}.mid`, out: `${base}.out` };
}

export interface ThroughputBenchOptions {
  /** Encoded handoffs addressed to the bench agent; their bytes are what every row carries. */
  records: readonly OutputRecord[];
  topics: TopicNames;
  /** The bench agent's id: its inbox is where the router hop ends. */
  agentId: string;
  producer: RecordProducer;
  observer: ArrivalObserver;
  processes: BenchProcesses;
  progress(text: string): void;
}

/** A wait that saw nothing new for a minute is stuck. */
const STALL_MS = 60_000;

export async function benchThroughput(options: ThroughputBenchOptions): Promise<Record<string, LatencySummary>> {
  const { records, topics, producer, observer, processes, progress } = options;
  const count = records.length;
  // Slower than 50 a second on any row is no longer a measurement worth waiting for.
  const deadlineMs = 120_000 + count * 20;
  const awaitAll = (topic: string, sentAt: Map<string, number>, label: string) =>
    waitForCount({
      label,
      total: count,
      count: () => observer.countOf(topic, sentAt.keys()),
      progress,
      stallMs: STALL_MS,
      deadlineMs,
    });

  progress(`Baton: publishing ${count} handoffs to ${topics.inbound}`);
  const inbox = topics.agentInbox(options.agentId);
  const baton = await publishAll(producer, topics.inbound, records);
  await awaitAll(topics.events, baton, 'Baton full path (COMPLETED outcomes)');
  await awaitAll(inbox, baton, 'Baton router hop (agent inbox)');
  const rows: Record<string, LatencySummary> = {
    'baton.routerHop': pairedSummary(baton, observer.arrivals(inbox)),
    'baton.fullPath': pairedSummary(baton, observer.arrivals(topics.events)),
  };

  for (const mode of RELAY_MODES) {
    const chain = relayTopics(topics.prefix, mode);
    progress(`relay ${mode}: starting two hops (${chain.in} → ${chain.mid} → ${chain.out})`);
    const hops = await Promise.all([
      processes.start(`relay_${mode}_1`, 'bench/relay.ts', {
        RELAY_MODE: mode,
        RELAY_FROM: chain.in,
        RELAY_TO: chain.mid,
      }),
      processes.start(`relay_${mode}_2`, 'bench/relay.ts', {
        RELAY_MODE: mode,
        RELAY_FROM: chain.mid,
        RELAY_TO: chain.out,
      }),
    ]);
    try {
      progress(`relay ${mode}: publishing the same ${count} records to ${chain.in}`);
      const sentAt = await publishAll(producer, chain.in, records);
      await awaitAll(chain.out, sentAt, `relay ${mode}, two hops`);
      rows[`relay.${mode}.oneHop`] = pairedSummary(sentAt, observer.arrivals(chain.mid));
      rows[`relay.${mode}.twoHops`] = pairedSummary(sentAt, observer.arrivals(chain.out));
    } finally {
      // Stopped before the next row, so an idle relay takes no CPU from it.
      await Promise.all(hops.map((hop) => processes.stop(hop)));
    }
  }
  return rows;
}
