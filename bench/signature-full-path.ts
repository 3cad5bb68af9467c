/**
 * The cost of signatures on the full path, in paired rounds as the exactly-once pairs are
 * (exactly-once-pairs.ts): two routers and two bench agents, one pair with signatures off and one
 * with BATON_SIGNATURES=required and every process sealing what it writes, as `npm start -- --secure`
 * does (the bench's publisher as the handoffs' sender, sealing each for the router and the gateway;
 * the router and the agent each with a key of its own, sealing outcome events for the key the
 * tracker and the gateway share), each on topics of its own. Each is warmed
 * up with a round's worth of handoffs; then in each of 9 rounds both carry the same number, off
 * first in odd rounds and required first in even ones, so both sides of each ratio run in the same
 * few seconds. Per pass: throughput and latency from publish to the agent's COMPLETED outcome, and the
 * CPU (user + system, /proc) each process spent over it, per handoff; the report reads the median
 * round.
 *
 * Why rounds: one pass of each, a minute apart, moved the ratio from 0.46 to 0.81 between two runs
 * of the same tree, the unsigned pass alone from 3,353/s to 5,211/s.
 */
import { topicNames, type RecordProducer, type TopicNames } from '@baton/kafka';
import { AvroCodec, HANDOFF_CODEC_SPEC, type HandoffCodec, type SchemaRegistryClient } from '@baton/wire';
import type { RunningService } from '../scripts/lib/service-supervisor.js';
import { ArrivalObserver } from './arrival-observer.js';
import { benchSigning, SIGNATURES_OFF_ENV, type BenchSigning } from './bench-signing.js';
import type { BenchProcesses } from './bench-processes.js';
import { withDeadline } from './deadline.js';
import { pathPass } from './path-pass.js';
import { medianRound, pathRatios } from './path-rounds.js';
import {
  type SignatureMode,
  type SignedPathResult,
  type SignedPathRound,
  type SignedPathRun,
} from './signature-figures.js';

/**
 * Rounds of the pair: more than the exactly-once pairs' 5, as each side's pass is under a second
 * and the ratio of one round ran from 0.55 to 1.07 within one run on the 2-core machine; the
 * median of 5 moved from 0.74 to 0.94 between runs of one tree, that of 9 from 0.72 to 0.82.
 */
const SIGNED_ROUNDS = 9;

const ROUTER = 'router';

export interface SignedPathOptions {
  brokers: string[];
  /** The run's topic prefix: the pairs run on `<prefix>-unsigned.*` and `<prefix>-signed.*`. */
  topicPrefix: string;
  /** Handoffs per pass: of each pair's warm-up, and of each side of each round. */
  count: number;
  tasks: number;
  registry: SchemaRegistryClient;
  agentId: string;
  producer: RecordProducer;
  processes: BenchProcesses;
  progress(text: string): void;
}

/** One side: its topics, codec, processes and observer. */
interface Side {
  mode: SignatureMode;
  topics: TopicNames;
  codec: HandoffCodec;
  observer: ArrivalObserver;
  processes: RunningService[];
}

export async function benchSignedPath(options: SignedPathOptions): Promise<SignedPathResult> {
  const { registry, agentId, progress, count } = options;
  let signing: BenchSigning | undefined;
  const sides: Side[] = [];
  try {
    signing = await benchSigning(registry, agentId);
    const unsigned = new AvroCodec(registry, HANDOFF_CODEC_SPEC);
    await unsigned.register();
    sides.push(await startSide(options, 'off', unsigned, SIGNATURES_OFF_ENV, SIGNATURES_OFF_ENV));
    sides.push(await startSide(options, 'required', signing.codec, signing.routerEnv, signing.agentEnv));
    const [off, required] = sides as [Side, Side];

    progress(`signatures: ${count} handoffs of warm-up through each pair`);
    await pass(options, off, 'warmup');
    await pass(options, required, 'warmup');
    const rounds: SignedPathRound[] = [];
    for (let index = 0; index < SIGNED_ROUNDS; index += 1) {
      const order = index % 2 === 0 ? [off, required] : [required, off];
      progress(`signatures: round ${index + 1} of ${SIGNED_ROUNDS}, ${order[0]!.mode} first`);
      const runs = new Map<SignatureMode, SignedPathRun>();
      for (const side of order) runs.set(side.mode, await pass(options, side, `round-${index + 1}`));
      const offRun = runs.get('off') as SignedPathRun;
      const requiredRun = runs.get('required') as SignedPathRun;
      rounds.push({
        first: order[0]!.mode,
        off: offRun,
        required: requiredRun,
        ratios: pathRatios(offRun, requiredRun),
      });
    }
    const median = medianRound(rounds);
    return {
      handoffs: count,
      warmup: count,
      rounds,
      off: median.off,
      required: median.required,
      ratios: median.ratios,
    };
  } finally {
    await Promise.all(
      sides.map(async (side) => {
        await side.observer.stop().catch(() => undefined);
        await Promise.all(side.processes.map((service) => options.processes.stop(service)));
      }),
    );
    signing?.cleanup();
  }
}

/** A router and a bench agent on topics of their own, and an observer of their outcome events. */
async function startSide(
  options: SignedPathOptions,
  mode: SignatureMode,
  codec: HandoffCodec,
  routerEnv: Record<string, string>,
  agentEnv: Record<string, string>,
): Promise<Side> {
  const { processes, agentId, progress } = options;
  const suffix = mode === 'off' ? 'unsigned' : 'signed';
  const topics = topicNames(`${options.topicPrefix}-${suffix}`);
  const env = { BATON_TOPIC_PREFIX: topics.prefix };
  progress(`signatures ${mode}: starting a router and ${agentId} on ${topics.prefix}.*`);
  const started: RunningService[] = [];
  // The agent first, so the router reads its registration before it routes.
  started.push(await processes.start(`${agentId}_${suffix}`, 'bench/bench-agent.ts', { ...env, ...agentEnv }));
  started.push(await processes.start(`${ROUTER}_${suffix}`, 'services/router/src/main.ts', { ...env, ...routerEnv }));
  const observer = new ArrivalObserver({
    brokers: options.brokers,
    recordTopics: [],
    eventsTopic: topics.events,
    registry: options.registry,
  });
  const side: Side = { mode, topics, codec, observer, processes: started };
  await withDeadline(observer.start(), `signatures ${mode} observer joining its group`, 120_000, progress);
  return side;
}

/** `count` handoffs through one side: throughput and latency to COMPLETED, CPU per handoff of each process. */
function pass(options: SignedPathOptions, side: Side, label: string): Promise<SignedPathRun> {
  const [agent, router] = side.processes as [RunningService, RunningService];
  return pathPass({
    label: `bench-${side.mode}-${label}`,
    producer: options.producer,
    codec: side.codec,
    topics: side.topics,
    observer: side.observer,
    agentId: options.agentId,
    count: options.count,
    tasks: options.tasks,
    roots: new Map([
      [ROUTER, router.child.pid as number],
      [options.agentId, agent.child.pid as number],
    ]),
    progress: options.progress,
  });
}
