/**
 * Idle CPU of the fleet `npm start` runs: every service started as `npm start` starts it, on topics
 * of a prefix of its own, left without traffic once all are ready and their consumer groups are
 * stable; then the CPU time (user + system, from /proc) of each service and of the broker over a
 * window of `seconds`; then it stops the fleet and deletes its topics. Alone:
 * `npx tsx bench/idle-cpu.ts [seconds]` (Kafka and the registry from KAFKA_BROKERS and
 * SCHEMA_REGISTRY_URL, else provisioned as `npm start` does).
 *
 * On a shared broker the broker's figure includes whatever else uses it meanwhile.
 */
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { createKafka, describeConsumerGroups, kafkaSecurityFromEnv, type ConsumerGroupStatus } from '@baton/kafka';
import { gatewayEnvironment, startFleet } from '../scripts/lib/fleet.js';
import { stopServices, type RunningService } from '../scripts/lib/service-supervisor.js';
import { clockTicksPerSecond, cpuPercent, findListeningPid, treeCpuTicks } from './proc-stat.js';
import { deleteRunTopics } from './run-topics.js';

export interface IdleCpuOptions {
  brokers: string[];
  schemaRegistryUrl: string;
  /** The broker JVM's pid; found from the first broker's port when it listens on this machine. */
  brokerPid?: number;
  /** The measured window. @default 60 */
  seconds?: number;
  progress(text: string): void;
}

export interface IdleCpuResult {
  /** The measured window as it turned out, in seconds. */
  seconds: number;
  /** Per service (and `broker`, when its pid is known): percent of one core over the window. */
  cpuPercent: Record<string, number>;
  /** Per service (and `broker`): CPU seconds, user + system, over the window. */
  cpuSeconds: Record<string, number>;
}

/** How long the fleet gets to start, be ready and settle before the measurement gives up. */
const SETTLE_TIMEOUT_MS = 300_000;
/** How often readiness and the consumer groups are looked at while waiting for them. */
const POLL_INTERVAL_MS = 500;
/** The groups must look the same for this long (several heartbeats) before the window opens. */
const STABLE_FOR_MS = 5_000;

export async function measureIdleCpu(options: IdleCpuOptions): Promise<IdleCpuResult> {
  const seconds = options.seconds ?? 60;
  const { progress } = options;
  const prefix = `idle-${Date.now().toString(36)}`;
  const env = {
    KAFKA_BROKERS: options.brokers.join(','),
    SCHEMA_REGISTRY_URL: options.schemaRegistryUrl,
    BATON_TOPIC_PREFIX: prefix,
  };
  const brokerPid = options.brokerPid ?? (await localBrokerPid(options.brokers));
  if (brokerPid === undefined) progress('the broker does not listen on this machine: its CPU is not measured');

  const services: RunningService[] = [];
  const logs = new Map<string, OutputTail>();
  const echo = (name: string) => (line: string) => logs.set(name, (logs.get(name) ?? new OutputTail()).push(line));
  try {
    progress(`starting the npm start fleet on topics ${prefix}.*`);
    // Port 0: the gateway must not clash with an `npm start` already running on this machine.
    const gatewayEnv = gatewayEnvironment('0', undefined).env;
    const addresses = await withDeadline(
      startFleet(services, { env, gatewayEnv, echo }),
      'the fleet did not start',
    ).catch((error: unknown) => {
      const failed = services.filter((service) => service.child.exitCode !== null);
      const output = failed.map((service) => `${service.name}:\n${logs.get(service.name)?.lines().join('\n') ?? ''}`);
      throw new Error([(error as Error).message, ...output].join('\n'), { cause: error });
    });
    progress(`${services.length} services started; waiting for every one to be ready`);
    await waitUntil(() => allReady(Object.values(addresses)), 'not every service became ready');
    progress('all ready; waiting for the consumer groups to be stable');
    await groupsStable(options.brokers, prefix);

    const roots = new Map(services.map((service) => [service.name, service.child.pid!]));
    if (brokerPid !== undefined) roots.set('broker', brokerPid);
    progress(
      `measuring ${services.length} services${brokerPid === undefined ? '' : ' and the broker'} for ${seconds} s`,
    );
    const before = await treeCpuTicks(roots);
    const startedAt = performance.now();
    await sleep(seconds * 1000);
    const after = await treeCpuTicks(roots);
    const wallSeconds = (performance.now() - startedAt) / 1000;

    const result = idleFigures(before, after, clockTicksPerSecond(), wallSeconds);
    const gone = [...roots.keys()].filter((name) => !(name in result.cpuSeconds));
    if (gone.length > 0) throw new Error(`${gone.join(', ')} exited during the measurement`);
    return result;
  } finally {
    progress('stopping the fleet');
    await stopServices(services);
    await deleteRunTopics(options.brokers, prefix, progress);
  }
}

/**
 * The figures of a window from the tick counts read at its start and its end; a name missing from
 * either reading (its process ended) is left out.
 */
export function idleFigures(
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
  ticksPerSecond: number,
  wallSeconds: number,
): IdleCpuResult {
  const cpuSeconds: Record<string, number> = {};
  const percent: Record<string, number> = {};
  for (const [name, end] of after) {
    const start = before.get(name);
    if (start === undefined) continue;
    cpuSeconds[name] = (end - start) / ticksPerSecond;
    percent[name] = cpuPercent(cpuSeconds[name], wallSeconds);
  }
  return { seconds: Math.round(wallSeconds * 100) / 100, cpuPercent: percent, cpuSeconds };
}

/** One line per name, highest first, then the services' total. */
export function formatIdleFigures(result: IdleCpuResult): string {
  const names = Object.keys(result.cpuPercent).sort((a, b) => result.cpuPercent[b]! - result.cpuPercent[a]!);
  const services = names.filter((name) => name !== 'broker');
  const total = services.reduce((sum, name) => sum + result.cpuSeconds[name]!, 0);
  return [
    `idle CPU over ${result.seconds} s (percent of one core, CPU seconds):`,
    ...names.map(
      (name) =>
        `  ${name.padEnd(34)} ${result.cpuPercent[name]!.toFixed(2).padStart(6)} %  ${result.cpuSeconds[name]!.toFixed(2)} s`,
    ),
    `  ${'all services'.padEnd(34)} ${cpuPercent(total, result.seconds).toFixed(2).padStart(6)} %  ${total.toFixed(2)} s`,
  ].join('\n');
}

/** A service's last log lines, to tell why it stopped. */
class OutputTail {
  private readonly kept: string[] = [];

  push(line: string): this {
    this.kept.push(line);
    if (this.kept.length > 20) this.kept.shift();
    return this;
  }

  lines(): string[] {
    return [...this.kept];
  }
}

async function localBrokerPid(brokers: string[]): Promise<number | undefined> {
  const [host, port] = (brokers[0] ?? '').split(':');
  if (!['127.0.0.1', 'localhost', '::1'].includes(host ?? '') || !port) return undefined;
  return findListeningPid(Number(port));
}

async function allReady(addresses: string[]): Promise<boolean> {
  const answers = await Promise.all(
    addresses.map((address) =>
      fetch(`${address}/readyz`).then(
        (response) => response.ok,
        () => false,
      ),
    ),
  );
  return answers.every(Boolean);
}

/**
 * Resolves once every consumer group of the prefix is Stable with members (or Empty), and the
 * groups and their members have stayed the same for STABLE_FOR_MS: no service is still joining or
 * rebalancing.
 */
async function groupsStable(brokers: string[], prefix: string): Promise<void> {
  const kafka = createKafka({
    brokers,
    clientId: `${prefix}-measure`,
    security: kafkaSecurityFromEnv(process.env),
    logLevel: 'nothing',
  });
  let last: string | undefined;
  let sameSince = Date.now();
  await waitUntil(async () => {
    const groups = await describeConsumerGroups(kafka, (groupId) => groupId.startsWith(`${prefix}.`));
    const shape = groupsShape(groups);
    if (shape !== last) {
      last = shape;
      sameSince = Date.now();
    }
    // Empty: a reader that read what it needed and left.
    const settled =
      groups.some((group) => group.state === 'Stable') &&
      groups.every((group) => (group.state === 'Stable' && group.members.length > 0) || group.state === 'Empty');
    return settled && Date.now() - sameSince >= STABLE_FOR_MS;
  }, 'the consumer groups did not settle');
}

function groupsShape(groups: ConsumerGroupStatus[]): string {
  return JSON.stringify(
    groups.map((group) => [group.groupId, group.state, group.members.map((member) => member.memberId).sort()]),
  );
}

async function waitUntil(condition: () => Promise<boolean>, failure: string): Promise<void> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${failure} within ${SETTLE_TIMEOUT_MS / 1000} s`);
    await sleep(POLL_INTERVAL_MS);
  }
}

async function withDeadline<T>(work: Promise<T>, failure: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${failure} within ${SETTLE_TIMEOUT_MS / 1000} s`)), SETTLE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { provisionInfrastructure } = await import('@baton/local-infra');
  const progress = (text: string): void => void process.stderr.write(`[idle-cpu] ${text}\n`);
  const infrastructure = await provisionInfrastructure();
  try {
    const seconds = process.argv[2] === undefined ? undefined : Number(process.argv[2]);
    const result = await measureIdleCpu({
      brokers: infrastructure.kafkaBrokers,
      schemaRegistryUrl: infrastructure.schemaRegistryUrl,
      seconds,
      progress,
    });
    process.stdout.write(`${formatIdleFigures(result)}\n`);
  } finally {
    await infrastructure.stop();
  }
}
