/**
 * `npm run bench:drain [N]`: CPU time per handoff of every process on the path, draining N handoffs
 * (default 20,000) through the router and the bench agent, then the same bytes through two
 * transaction-per-batch relays, once 2,000 of warm-up went through each: the router, the agent,
 * each relay, the broker, and this process (the publisher and the observer, which share the
 * machine with what they measure), with how busy the whole machine was, and how many transactions
 * each service committed.
 *
 * On 2 cores the throughput rows of `npm run bench` are bound by CPU (the machine is over 90% busy
 * during them), so throughput is about 2 cores over the sum of these figures; and CPU per handoff
 * holds up on a noisy machine far better than throughput does. It is how a change to the hot path
 * is compared before and after.
 *
 * DRAIN_NODE_OPTIONS replaces the services' and relays' Node options (services/node.env) for the
 * run, e.g. `--max-semi-space-size=8 --max-old-space-size=512`. DRAIN_PROFILE_DIR=<dir> writes a CPU
 * profile of each of them there, of the measured pass only (bench/cpu-profile.mjs).
 * DRAIN_SIGNATURES=required runs the router and the agent with signatures required, the handoffs
 * sealed by their sender, as `npm run bench:signatures` does: where a signed handoff's time goes.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { provisionInfrastructure } from '@baton/local-infra';
import { createKafka, createTopics, kafkaSecurityFromEnv, RecordProducer, topicNames } from '@baton/kafka';
import { SchemaRegistryClient, createHandoffCodec } from '@baton/wire';
import { SERVICE_NODE_OPTIONS_FILE } from '../scripts/lib/service-node-args.js';
import { ArrivalObserver } from './arrival-observer.js';
import { benchSigning, SIGNATURES_OFF_ENV, type BenchSigning } from './bench-signing.js';
import { BenchProcesses, benchServiceEnv } from './bench-processes.js';
import { waitForCount, withDeadline } from './deadline.js';
import { clockTicksPerSecond, findListeningPid, treeCpuTicks } from './proc-stat.js';
import { publishAll } from './publish.js';
import { deleteRunTopics } from './run-topics.js';
import { pairedSummary } from './stats.js';
import { relayTopics, statusUpdateRecords } from './throughput-bench.js';

const PARTITIONS = 6;
const TASKS = 200;
const AGENT = 'bench_agent';
/** Handoffs through each path before it is measured: enough for V8 to optimise the hot path. */
const WARMUP = 2_000;

function progress(text: string): void {
  process.stderr.write(`[drain] ${text}\n`);
}

/** services/node.env's NODE_OPTIONS, which an environment's NODE_OPTIONS would replace rather than extend. */
function serviceNodeOptions(): string {
  const options = /^NODE_OPTIONS="([^"]*)"$/m.exec(readFileSync(SERVICE_NODE_OPTIONS_FILE, 'utf8'))?.[1];
  if (options === undefined) throw new Error(`${SERVICE_NODE_OPTIONS_FILE} has no NODE_OPTIONS="..." line`);
  return options;
}

/** Busy and total ticks of the whole machine (/proc/stat's first line; idle and iowait are not busy). */
async function machineTicks(): Promise<{ busy: number; total: number }> {
  const line = (await readFile('/proc/stat', 'utf8')).split('\n')[0] ?? '';
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, ticks) => sum + ticks, 0);
  return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
}

const count = Number(process.argv[2] ?? 20_000);
if (!Number.isInteger(count) || count < 1) throw new Error(`N must be a positive integer, not "${process.argv[2]}"`);
const profileDir = process.env.DRAIN_PROFILE_DIR;
const nodeOptions =
  profileDir === undefined
    ? process.env.DRAIN_NODE_OPTIONS
    : `${process.env.DRAIN_NODE_OPTIONS ?? serviceNodeOptions()} --import=${fileURLToPath(new URL('cpu-profile.mjs', import.meta.url))}`;
if (profileDir !== undefined) mkdirSync(profileDir, { recursive: true });
const signatures = process.env.DRAIN_SIGNATURES ?? 'off';
if (signatures !== 'off' && signatures !== 'required')
  throw new Error(`DRAIN_SIGNATURES must be off or required, not "${signatures}"`);

const infrastructure = await provisionInfrastructure();
const brokers = infrastructure.kafkaBrokers;
const topics = topicNames(`drain-${Date.now().toString(36)}`);
const processes = new BenchProcesses(
  {
    ...benchServiceEnv(brokers, infrastructure.schemaRegistryUrl, topics.prefix, PARTITIONS),
    ...(nodeOptions === undefined ? {} : { NODE_OPTIONS: nodeOptions }),
    ...(profileDir === undefined ? {} : { DRAIN_PROFILE_DIR: resolve(profileDir) }),
  },
  progress,
);
const kafka = createKafka({ brokers, clientId: 'drain', security: kafkaSecurityFromEnv(process.env) });
const producer = new RecordProducer(kafka);
const chain = relayTopics(topics.prefix, 'transaction');
let observer: ArrivalObserver | undefined;
let signing: BenchSigning | undefined;
try {
  const registry = new SchemaRegistryClient({ url: infrastructure.schemaRegistryUrl });
  if (signatures === 'required') signing = await benchSigning(registry, AGENT);
  await createTopics(
    kafka,
    Object.values(chain).map((topic) => ({ topic, numPartitions: PARTITIONS, replicationFactor: 1 })),
  );
  // The agent first, so the router reads its registration before it routes.
  const agent = await processes.start(AGENT, 'bench/bench-agent.ts', signing?.agentEnv ?? SIGNATURES_OFF_ENV);
  const router = await processes.start(
    'router',
    'services/router/src/main.ts',
    signing?.routerEnv ?? SIGNATURES_OFF_ENV,
  );
  const relays = await Promise.all(
    [
      [chain.in, chain.mid],
      [chain.mid, chain.out],
    ].map(([from, to], hop) =>
      processes.start(`relay_${hop + 1}`, 'bench/relay.ts', {
        RELAY_MODE: 'transaction',
        RELAY_FROM: from as string,
        RELAY_TO: to as string,
      }),
    ),
  );
  const codec = signing?.codec ?? (await createHandoffCodec(registry));
  const arrivals = new ArrivalObserver({
    brokers,
    recordTopics: [topics.agentInbox(AGENT), chain.mid, chain.out],
    eventsTopic: topics.events,
    registry,
  });
  observer = arrivals;
  await withDeadline(arrivals.start(), 'arrival observer joining its group', 120_000, progress);
  await producer.connect();
  const brokerPid = await findListeningPid(Number(brokers[0]?.split(':').at(-1)));
  const broker: [string, number][] = brokerPid === undefined ? [] : [['broker', brokerPid]];

  /** Publishes `total` handoffs to `topic` and waits for them on `arrivedOn`; the CPU each root used meanwhile. */
  const pass = async (
    topic: string,
    arrivedOn: string,
    taskPrefix: string,
    total: number,
    roots: Map<string, number>,
  ) => {
    const records = statusUpdateRecords(codec, topic, AGENT, total, TASKS, taskPrefix);
    const [machineBefore, before, ownBefore] = [await machineTicks(), await treeCpuTicks(roots), process.cpuUsage()];
    const sentAt = await publishAll(producer, topic, records);
    await waitForCount({
      label: `${taskPrefix} on ${arrivedOn}`,
      total,
      count: () => arrivals.countOf(arrivedOn, sentAt.keys()),
      progress,
      stallMs: 60_000,
      deadlineMs: 120_000 + total * 20,
    });
    const [own, after, machineAfter] = [process.cpuUsage(ownBefore), await treeCpuTicks(roots), await machineTicks()];
    const perHandoffUs = (ticks: number) => Math.round(((ticks / clockTicksPerSecond()) * 1e6) / total);
    const cpu = [...roots.keys()].map(
      (name) => `${name} ${perHandoffUs((after.get(name) ?? NaN) - (before.get(name) ?? NaN))} µs`,
    );
    cpu.push(`bench (publisher and observer) ${Math.round((own.user + own.system) / total)} µs`);
    const busy = (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total);
    const { throughputPerS } = pairedSummary(sentAt, arrivals.arrivals(arrivedOn));
    return `${Math.round(throughputPerS)}/s, machine ${Math.round(busy * 100)}% busy; CPU per handoff: ${cpu.join(', ')}`;
  };
  const paths = [
    {
      label: 'baton-full-path',
      topic: topics.inbound,
      arrivedOn: topics.events,
      roots: new Map([['router', router.child.pid as number], [AGENT, agent.child.pid as number], ...broker]),
    },
    {
      label: 'relay-transaction-two-hops',
      topic: chain.in,
      arrivedOn: chain.out,
      roots: new Map([...relays.map((relay): [string, number] => [relay.name, relay.child.pid as number]), ...broker]),
    },
  ];
  // Both paths are warmed before either is measured: the broker warms up too (a tenth of its CPU
  // was still in its interpreter during the first path's pass when each path's warm-up came just
  // before its own pass), and the path measured first would carry that.
  for (const { label, topic, arrivedOn, roots } of paths) {
    progress(`${label}: ${WARMUP} handoffs of warm-up`);
    await pass(topic, arrivedOn, `${label}-warmup`, WARMUP, roots);
  }
  // Profiles (DRAIN_PROFILE_DIR) start now, so they show the measured passes, not start-up and warm-up.
  if (profileDir !== undefined) {
    for (const { roots } of paths) for (const [name, pid] of roots) if (name !== 'broker') process.kill(pid, 'SIGUSR2');
  }
  for (const { label, topic, arrivedOn, roots } of paths) {
    progress(`${label}: ${count} handoffs`);
    process.stdout.write(`${label}: ${await pass(topic, arrivedOn, `${label}-task`, count, roots)}\n`);
  }
  for (const service of [router, agent]) {
    const metrics = await (await fetch(`${await service.started}/metrics`)).text();
    const sum = /^baton_transaction_messages_sum\{[^}]*\} (\S+)$/m.exec(metrics)?.[1];
    const transactions = /^baton_transaction_messages_count\{[^}]*\} (\S+)$/m.exec(metrics)?.[1];
    process.stdout.write(`${service.name}: ${transactions} transactions for ${sum} handoffs\n`);
  }
  process.stdout.write(`peak RSS (MiB): ${JSON.stringify(await processes.peakRssMiB())}\n`);
} finally {
  await observer?.stop().catch(() => undefined);
  await producer.disconnect().catch(() => undefined);
  await processes.stopAll();
  signing?.cleanup();
  await deleteRunTopics(brokers, topics.prefix, progress);
  await infrastructure.stop();
}
