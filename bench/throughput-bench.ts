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

/**
 * Handoffs through each path (Baton's, each relay's) before its measured pass, on tasks of their
 * own: a relay row lasts about a second, and without them its first fetch, the join and its first
 * transactions were part of it, which moved its throughput from run to run by half. No more than
 * that: the tracker, started later, folds every event of the run, and 1,000 took its peak RSS from
 * 130-135 to 144 MiB, near the bench's 150 MiB bound.
 */
export const THROUGHPUT_WARMUP = 500;

export interface ThroughputBenchOptions {
  /** Encoded handoffs addressed to the bench agent; their bytes are what every row carries. */
  records: readonly OutputRecord[];
  /** THROUGHPUT_WARMUP others like them, through each path first and not measured. */
  warmup: readonly OutputRecord[];
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
  const { records, warmup, topics, producer, observer, processes, progress } = options;
  const count = records.length;
  const awaitAll = (topic: string, sentAt: Map<string, number>, label: string) =>
    waitForCount({
      label,
      total: sentAt.size,
      count: () => observer.countOf(topic, sentAt.keys()),
      progress,
      stallMs: STALL_MS,
      // Slower than 50 a second on any row is no longer a measurement worth waiting for.
      deadlineMs: 120_000 + sentAt.size * 20,
    });
  const warmUp = async (from: string, to: string, label: string) => {
    progress(`${label}: ${warmup.length} handoffs of warm-up`);
    await awaitAll(to, await publishAll(producer, from, warmup), `${label}, warm-up`);
  };

  await warmUp(topics.inbound, topics.events, 'Baton');
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
      await warmUp(chain.in, chain.out, `relay ${mode}`);
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
