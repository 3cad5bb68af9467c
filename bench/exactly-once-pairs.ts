/**
 * The paired rounds behind the two exactly-once ratio targets: Baton (router hop, full path) and
 * the transaction-per-batch relay (one hop, two hops) take turns on the same machine, each round a
 * pass of each over the same bytes, in the order A B, B A, A B, … so neither side always follows
 * the other. A ratio is taken within each round and the targets read the median round.
 *
 * Why: the single throughput rows run Baton first and the relay a minute later, and the relay's
 * row lasts well under a second, so one busy second of another process on this shared machine
 * moved the ratio from 0.27 to 0.45 between runs of the same code. Taking turns puts both sides of
 * each ratio in the same few seconds, and the median of several rounds ignores a round that a
 * burst of other work spoiled.
 */
import { createTopics, topicNames, type KafkaClient, type OutputRecord, type RecordProducer } from '@baton/kafka';
import type { HandoffCodec, SchemaRegistryClient } from '@baton/wire';
import { ArrivalObserver } from './arrival-observer.js';
import type { RunningService } from '../scripts/lib/service-supervisor.js';
import type { BenchProcesses } from './bench-processes.js';
import { waitForCount, withDeadline } from './deadline.js';
import { publishAll } from './publish.js';
import { pairedSummary } from './stats.js';
import { relayTopics, statusUpdateRecords } from './throughput-bench.js';

/** Rounds of the pairs: odd, so the median is one round's. */
export const PAIR_ROUNDS = 5;

export interface PairRound {
  /** Which side ran first in this round. */
  first: 'baton' | 'relay';
  /** Throughput per second of each side's rows. */
  baton: { routerHop: number; fullPath: number };
  relay: { oneHop: number; twoHops: number };
  /** Baton's over the relay's: routerHop / oneHop, fullPath / twoHops. */
  ratios: { routerHop: number; fullPath: number };
}

export interface PairedRatios {
  rounds: PairRound[];
  /** The median round's ratio of each. */
  median: { routerHop: number; fullPath: number };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The rounds' ratios and their medians: pure, for the report, the targets and the tests. */
export function pairedRatios(rounds: Omit<PairRound, 'ratios'>[]): PairedRatios {
  const withRatios = rounds.map((round) => ({
    ...round,
    ratios: {
      routerHop: round.baton.routerHop / round.relay.oneHop,
      fullPath: round.baton.fullPath / round.relay.twoHops,
    },
  }));
  return {
    rounds: withRatios,
    median: {
      routerHop: median(withRatios.map((round) => round.ratios.routerHop)),
      fullPath: median(withRatios.map((round) => round.ratios.fullPath)),
    },
  };
}

/** Who goes first in round `index`: A B, B A, A B, … */
export function firstOfRound(index: number): 'baton' | 'relay' {
  return index % 2 === 0 ? 'baton' : 'relay';
}

export interface PairsOptions {
  brokers: string[];
  kafka: KafkaClient;
  /** Encodes the rounds' handoffs, as the throughput rows' are. */
  codec: HandoffCodec;
  /** Where the observer finds the outcome events' writer schemas. */
  registry: SchemaRegistryClient;
  /** The run's topic prefix: the pairs run on `<prefix>-pairs.*`, which no other process of the bench reads. */
  topicPrefix: string;
  partitions: number;
  /** Handoffs per side per round, over `tasks` tasks. */
  count: number;
  tasks: number;
  /** The bench agent's id, which the routing table routes the handoffs to. */
  agentId: string;
  producer: RecordProducer;
  processes: BenchProcesses;
  progress(text: string): void;
}

/** A wait that saw nothing new for a minute is stuck. */
const STALL_MS = 60_000;

/**
 * Runs the rounds on topics of their own, with a router, a bench agent and the two transaction
 * relays started for them, and an observer of their own. Own topics keep their events out of the
 * tracker's fold (it keeps every event of the events topic it reads, so the pairs' 100,000 events
 * would have raised its peak RSS by about 50 MiB) and out of every other row.
 */
export async function benchExactlyOncePairs(options: PairsOptions): Promise<PairedRatios> {
  const { count, tasks, agentId, producer, processes, progress } = options;
  const topics = topicNames(`${options.topicPrefix}-pairs`);
  const chain = relayTopics(topics.prefix, 'transaction');
  const inbox = topics.agentInbox(agentId);
  const env = { BATON_TOPIC_PREFIX: topics.prefix };
  const records = (label: string, total: number) =>
    statusUpdateRecords(options.codec, topics.inbound, agentId, total, tasks, `bench-pairs-${label}`);
  await createTopics(
    options.kafka,
    Object.values(chain).map((topic) => ({ topic, numPartitions: options.partitions, replicationFactor: 1 })),
  );
  const started: RunningService[] = [];
  const observer = new ArrivalObserver({
    brokers: options.brokers,
    recordTopics: [inbox, chain.mid, chain.out],
    eventsTopic: topics.events,
    registry: options.registry,
  });
  let observing = false;
  try {
    progress(`exactly-once pairs: starting a router, ${agentId} and two transaction relays on ${topics.prefix}.*`);
    // The agent first, so the router reads its registration before it routes.
    started.push(await processes.start(`${agentId}_pairs`, 'bench/bench-agent.ts', env));
    started.push(await processes.start('router_pairs', 'services/router/src/main.ts', env));
    for (const [hop, [from, to]] of [
      [chain.in, chain.mid],
      [chain.mid, chain.out],
    ].entries()) {
      started.push(
        await processes.start(`relay_pairs_${hop + 1}`, 'bench/relay.ts', {
          RELAY_MODE: 'transaction',
          RELAY_FROM: from as string,
          RELAY_TO: to as string,
        }),
      );
    }
    await withDeadline(observer.start(), 'pairs observer joining its group', 120_000, progress);
    observing = true;

    const pass = async (from: string, sent: readonly OutputRecord[], hop: string, end: string, label: string) => {
      const sentAt = await publishAll(producer, from, sent);
      for (const [topic, part] of [
        [end, label],
        [hop, `${label} (first hop)`],
      ] as const) {
        await waitForCount({
          label: part,
          total: sentAt.size,
          count: () => observer.countOf(topic, sentAt.keys()),
          progress,
          stallMs: STALL_MS,
          deadlineMs: 120_000 + sentAt.size * 20,
        });
      }
      return {
        oneHop: pairedSummary(sentAt, observer.arrivals(hop)).throughputPerS,
        twoHops: pairedSummary(sentAt, observer.arrivals(end)).throughputPerS,
      };
    };
    // As many handoffs of warm-up as a round carries, so that both sides are measured at their
    // steady state: V8 optimises a hot path over thousands of calls, and Baton's is far larger than
    // a relay's. After 1,000 of warm-up, Baton's router hop carried 5,900, 8,000, 9,200, 10,100 and
    // 8,300 a second in rounds 1 to 5 while the relay's stayed between 17,000 and 20,700, and a
    // router profiled 2 s into a pass after 2,000 still spent a tenth of its CPU compiling.
    const warmup = records('warmup', count);
    progress(`exactly-once pairs: ${warmup.length} handoffs of warm-up through each side`);
    await pass(topics.inbound, warmup, inbox, topics.events, 'pairs warm-up, Baton');
    await pass(chain.in, warmup, chain.mid, chain.out, 'pairs warm-up, relay');

    const rounds: Omit<PairRound, 'ratios'>[] = [];
    for (let index = 0; index < PAIR_ROUNDS; index += 1) {
      const first = firstOfRound(index);
      const sent = records(`round-${index + 1}`, count);
      progress(`exactly-once pairs: round ${index + 1} of ${PAIR_ROUNDS}, ${first} first`);
      const runBaton = () => pass(topics.inbound, sent, inbox, topics.events, `pairs round ${index + 1}, Baton`);
      const runRelay = () => pass(chain.in, sent, chain.mid, chain.out, `pairs round ${index + 1}, relay`);
      const batonFirst = first === 'baton' ? await runBaton() : undefined;
      const relay = await runRelay();
      const baton = batonFirst ?? (await runBaton());
      rounds.push({
        first,
        baton: { routerHop: baton.oneHop, fullPath: baton.twoHops },
        relay: { oneHop: relay.oneHop, twoHops: relay.twoHops },
      });
    }
    return pairedRatios(rounds);
  } finally {
    if (observing) await observer.stop().catch(() => undefined);
    await Promise.all(started.map((service) => processes.stop(service)));
  }
}
