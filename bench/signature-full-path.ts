/**
 * The cost of signatures on the full path (issue 13), paired in one run: the same number of
 * handoffs through a router and the bench agent with signatures off, then through a new pair with
 * BATON_SIGNATURES=required and every one signing (the bench's publisher as the handoffs' sender,
 * the router and the agent each with a key of its own, one trust store of theirs and of the two
 * readers of outcome events the writers seal them for). Each pair
 * is fresh and warmed up before its measured pass, so neither carries the other's JIT or heap.
 * Per pass: throughput and latency from publish to the agent's COMPLETED outcome, and the CPU
 * (user + system, /proc) each process spent over it, per handoff.
 *
 * The bench's own router and agent must be stopped first: the new pairs join their consumer groups.
 */
import type { RecordProducer, TopicNames } from '@baton/kafka';
import { signingStage } from '@baton/message-signing';
import { AvroCodec, HANDOFF_CODEC_SPEC, type HandoffCodec, type SchemaRegistryClient } from '@baton/wire';
import { TestSigningKeys } from '../test/helpers/signing-keys.js';
import type { ArrivalObserver } from './arrival-observer.js';
import type { BenchProcesses } from './bench-processes.js';
import { waitForCount } from './deadline.js';
import { clockTicksPerSecond, treeCpuTicks } from './proc-stat.js';
import { publishAll } from './publish.js';
import {
  cpuUsPerHandoff,
  signedPathRatios,
  type SignatureMode,
  type SignedPathResult,
  type SignedPathRun,
} from './signature-figures.js';
import { pairedSummary } from './stats.js';
import { BENCH_SENDER, statusUpdateRecords } from './throughput-bench.js';

/** Handoffs through each fresh pair before it is measured: enough for V8 to optimise the hot path. */
const WARMUP = 1_000;
/** A wait that saw nothing new for a minute is stuck (a misconfigured key dead-letters everything). */
const STALL_MS = 60_000;
const ROUTER = 'router';

export interface SignedPathOptions {
  /** Handoffs per measured pass. */
  count: number;
  tasks: number;
  registry: SchemaRegistryClient;
  topics: TopicNames;
  agentId: string;
  producer: RecordProducer;
  observer: ArrivalObserver;
  processes: BenchProcesses;
  progress(text: string): void;
}

export async function benchSignedPath(options: SignedPathOptions): Promise<SignedPathResult> {
  const { registry, agentId, progress } = options;
  // Private keys 0600 in a fresh temp dir (0700), the trust store beside them; all removed at the end.
  const keys = new TestSigningKeys();
  try {
    const publisherKey = keys.issue(BENCH_SENDER, 'bench-publisher');
    keys.issue(ROUTER, 'bench-router');
    keys.issue(agentId, 'bench-agent');
    // As in a deployment, the tracker and the gateway read the outcome events: the router and the
    // agent seal each event for them (neither runs here; their keys are what the writers see).
    keys.issue('tracker', 'bench-tracker', ['tracker'], { outcomeReader: true });
    keys.issue('gateway', 'bench-gateway', ['*'], { outcomeReader: true });
    const unsigned = new AvroCodec(registry, HANDOFF_CODEC_SPEC);
    // The publisher signs as the handoffs' sender; encoding happens before the pass is timed, as in the throughput rows.
    const signing = new AvroCodec(registry, HANDOFF_CODEC_SPEC, [
      signingStage({ kind: 'handoff', mode: 'off', signingKey: publisherKey }),
    ]);
    await Promise.all([unsigned.register(), signing.register()]);

    // Explicitly off, whatever the shell running the bench has set.
    const offEnv = { BATON_SIGNATURES: 'off', BATON_SIGNING_KEY_FILE: '', BATON_SIGNING_KEY_ID: '' };
    progress(`signatures off: ${options.count} handoffs through a fresh router and ${agentId}`);
    const off = await pass(options, 'off', unsigned, offEnv, offEnv);
    progress(`signatures required: ${options.count} handoffs through a fresh router and ${agentId}, all signing`);
    const required = await pass(options, 'required', signing, keys.envFor(ROUTER), keys.envFor(agentId));
    return { handoffs: options.count, warmup: WARMUP, off, required, ratios: signedPathRatios(off, required) };
  } finally {
    keys.cleanup();
  }
}

async function pass(
  options: SignedPathOptions,
  mode: SignatureMode,
  codec: HandoffCodec,
  routerEnv: Record<string, string>,
  agentEnv: Record<string, string>,
): Promise<SignedPathRun> {
  const { topics, agentId, producer, observer, processes, progress } = options;
  const suffix = mode === 'off' ? 'unsigned' : 'signed';
  // The agent first: the previous agent deregistered when it stopped, and a router reads the agents
  // registered before it starts, whereas one started first would dead-letter the first handoffs
  // NO_LIVE_AGENT until it saw the new registration. One that fails to start is left to the
  // bench's stopAll, with the rest.
  const agent = await processes.start(`${agentId}_${suffix}`, 'bench/bench-agent.ts', agentEnv);
  const router = await processes.start(`${ROUTER}_${suffix}`, 'services/router/src/main.ts', routerEnv);
  try {
    const records = (count: number, label: string) =>
      statusUpdateRecords(codec, topics.inbound, agentId, count, options.tasks, `bench-${suffix}-${label}`);
    const completed = async (sentAt: Map<string, number>, label: string) =>
      waitForCount({
        label,
        total: sentAt.size,
        count: () => observer.countOf(topics.events, sentAt.keys()),
        progress,
        stallMs: STALL_MS,
        deadlineMs: 120_000 + sentAt.size * 20,
      });

    const warmup = records(WARMUP, 'warmup');
    await completed(await publishAll(producer, topics.inbound, warmup), `signatures ${mode}, warm-up`);

    const measured = records(options.count, 'task');
    const roots = new Map([
      [ROUTER, router.child.pid!],
      [agentId, agent.child.pid!],
    ]);
    const before = await treeCpuTicks(roots);
    const sentAt = await publishAll(producer, topics.inbound, measured);
    await completed(sentAt, `signatures ${mode} (COMPLETED outcomes)`);
    const after = await treeCpuTicks(roots);
    const cpu = cpuUsPerHandoff(before, after, clockTicksPerSecond(), options.count);
    const gone = [...roots.keys()].filter((name) => !(name in cpu));
    if (gone.length > 0) throw new Error(`${gone.join(', ')} exited during the signatures ${mode} pass`);
    return { fullPath: pairedSummary(sentAt, observer.arrivals(topics.events)), cpuUsPerHandoff: cpu };
  } finally {
    // Stopped before the next pass: the next pair takes over their consumer groups.
    await Promise.all([processes.stop(agent), processes.stop(router)]);
  }
}
