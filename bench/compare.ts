/**
 * `npm run bench:compare [REF]`: this working tree's router and bench agent against those of a
 * commit (REF, default HEAD), on one broker, in passes that alternate between the two (A B, B A,
 * A B, ...), each version on topics of its own and run as its own launchers run it (its Node
 * options and flags). Per pass: throughput to COMPLETED, and the CPU per handoff of the router and
 * of the agent, from /proc. It prints every round and the median ratios, this tree over REF, then
 * one JSON line.
 *
 * Why: on a shared 2-core VM the speed of the machine itself moves by half from one minute to the
 * next, so two `npm run bench` or `bench:drain` runs a few minutes apart cannot tell a 10% change;
 * passes seconds apart, in alternating order, and the median of their ratios can. REF is checked
 * out in a temporary git worktree, given this tree's third-party packages and bundled by its own
 * bundler; the worktree is removed at the end. COMPARE_MESSAGES (default 8,000 a pass) and
 * COMPARE_ROUNDS (default 10) size it: about 5 minutes with the defaults.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { provisionInfrastructure } from '@baton/local-infra';
import { createKafka, kafkaSecurityFromEnv, RecordProducer, topicNames, type TopicNames } from '@baton/kafka';
import { SchemaRegistryClient, createHandoffCodec, type HandoffCodec } from '@baton/wire';
import { bundleServices } from '../scripts/lib/service-bundle.js';
import { serviceNodeArgs } from '../scripts/lib/service-node-args.js';
import { ArrivalObserver } from './arrival-observer.js';
import { checkOutBase, type BaseTree } from './base-tree.js';
import { benchServiceEnv } from './bench-processes.js';
import { AGENT, PARTITIONS, TASKS } from './bench-run-settings.js';
import { waitForCount, withDeadline } from './deadline.js';
import { median } from './micro-timing.js';
import { clockTicksPerSecond, treeCpuTicks } from './proc-stat.js';
import { publishAll } from './publish.js';
import { deleteRunTopics } from './run-topics.js';
import { pairedSummary } from './stats.js';
import { statusUpdateRecords } from './throughput-bench.js';

const ENTRIES = { agent: 'bench/bench-agent.ts', router: 'services/router/src/main.ts' } as const;
const WARMUP = 2_000;

function progress(text: string): void {
  process.stderr.write(`[compare] ${text}\n`);
}

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, not "${raw}"`);
  return value;
}

const ref = process.argv[2] ?? 'HEAD';
const perPass = positive('COMPARE_MESSAGES', process.env.COMPARE_MESSAGES, 8_000);
const rounds = positive('COMPARE_ROUNDS', process.env.COMPARE_ROUNDS, 10);

/** One version's router and agent, their pids, the topics they use and an observer of its events. */
interface Side {
  label: string;
  topics: TopicNames;
  pids: Map<string, number>;
  observer: ArrivalObserver;
}

interface Pass {
  routerUs: number;
  agentUs: number;
  throughputPerS: number;
}

/** Resolves with the pid once the service logs `service.started`; rejects if it exits first. */
function started(child: ChildProcess, name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${name} exited with code ${code} before it started`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes('"service.started"')) resolve(child.pid as number);
    });
  });
}

progress(`checking out ${ref} and bundling its router and bench agent`);
const base: BaseTree = await checkOutBase(ref, Object.values(ENTRIES));
const children: ChildProcess[] = [];
const infrastructure = await provisionInfrastructure();
const brokers = infrastructure.kafkaBrokers;
const run = Date.now().toString(36);
const kafka = createKafka({ brokers, clientId: 'compare', security: kafkaSecurityFromEnv(process.env) });
const producer = new RecordProducer(kafka);
const sides: Side[] = [];
try {
  await bundleServices(Object.values(ENTRIES));
  const registry = new SchemaRegistryClient({ url: infrastructure.schemaRegistryUrl });
  const codec = await createHandoffCodec(registry);
  for (const [label, spawnEntry] of [
    [
      'this tree',
      (entry: string, env: NodeJS.ProcessEnv) =>
        spawn(process.execPath, serviceNodeArgs(entry), { env, stdio: ['ignore', 'pipe', 'inherit'] }),
    ],
    [base.commit, (entry: string, env: NodeJS.ProcessEnv) => base.spawn(entry, env)],
  ] as const) {
    const topics = topicNames(`compare-${run}-${sides.length}`);
    const env = {
      ...process.env,
      ...benchServiceEnv(brokers, infrastructure.schemaRegistryUrl, topics.prefix, PARTITIONS),
    };
    const pids = new Map<string, number>();
    // The agent first, so the router reads its registration before it routes.
    for (const [name, entry] of [
      ['agent', ENTRIES.agent],
      ['router', ENTRIES.router],
    ] as const) {
      const child = spawnEntry(entry, env);
      children.push(child);
      pids.set(
        name,
        await withDeadline(started(child, `${label} ${name}`), `${label} ${name}: starting`, 120_000, progress),
      );
    }
    const observer = new ArrivalObserver({ brokers, recordTopics: [], eventsTopic: topics.events, registry });
    await withDeadline(observer.start(), `${label}: observer joining its group`, 120_000, progress);
    sides.push({ label, topics, pids, observer });
  }
  await producer.connect();
  const ticksPerSecond = clockTicksPerSecond();
  const pass = async (side: Side, tasks: string, count: number, codecOf: HandoffCodec): Promise<Pass> => {
    const records = statusUpdateRecords(codecOf, side.topics.inbound, AGENT, count, TASKS, tasks);
    const before = await treeCpuTicks(side.pids);
    const sentAt = await publishAll(producer, side.topics.inbound, records);
    await waitForCount({
      label: `${side.label} ${tasks}`,
      total: count,
      count: () => side.observer.countOf(side.topics.events, sentAt.keys()),
      progress,
      stallMs: 60_000,
      deadlineMs: 120_000 + count * 20,
    });
    const after = await treeCpuTicks(side.pids);
    const us = (name: string) =>
      (((after.get(name) ?? NaN) - (before.get(name) ?? NaN)) / ticksPerSecond / count) * 1e6;
    const { throughputPerS } = pairedSummary(sentAt, side.observer.arrivals(side.topics.events));
    return { routerUs: us('router'), agentUs: us('agent'), throughputPerS };
  };
  const [ours, theirs] = sides as [Side, Side];
  progress(`warming each up with ${WARMUP} handoffs`);
  for (const side of sides) await pass(side, `${side.topics.prefix}-warmup`, WARMUP, codec);
  const results: { ours: Pass; theirs: Pass }[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? [ours, theirs] : [theirs, ours];
    const passes = new Map<Side, Pass>();
    for (const side of order) passes.set(side, await pass(side, `${side.topics.prefix}-r${round}`, perPass, codec));
    const result = { ours: passes.get(ours) as Pass, theirs: passes.get(theirs) as Pass };
    results.push(result);
    const show = (p: Pass) =>
      `${Math.round(p.throughputPerS)}/s, router ${Math.round(p.routerUs)} µs, agent ${Math.round(p.agentUs)} µs`;
    process.stdout.write(
      `round ${round + 1} (${order[0]?.label} first): this tree ${show(result.ours)} | ${base.commit} ${show(result.theirs)}\n`,
    );
  }
  const ratio = (pick: (p: Pass) => number) => median(results.map(({ ours: a, theirs: b }) => pick(a) / pick(b)));
  const medians = {
    throughput: ratio((p) => p.throughputPerS),
    routerCpu: ratio((p) => p.routerUs),
    agentCpu: ratio((p) => p.agentUs),
    cpu: ratio((p) => p.routerUs + p.agentUs),
  };
  const fixed = (value: number) => value.toFixed(3);
  process.stdout.write(
    `this tree / ${base.commit}, median of ${rounds} rounds: throughput ${fixed(medians.throughput)}x; CPU per handoff ${fixed(medians.cpu)}x (router ${fixed(medians.routerCpu)}x, agent ${fixed(medians.agentCpu)}x)\n`,
  );
  process.stdout.write(
    `${JSON.stringify({ event: 'bench.compare', base: base.commit, perPass, rounds, medians, results })}\n`,
  );
} finally {
  for (const side of sides) await side.observer.stop().catch(() => undefined);
  await producer.disconnect().catch(() => undefined);
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
  await deleteRunTopics(brokers, `compare-${run}`, progress);
  await infrastructure.stop();
  base.remove();
}
