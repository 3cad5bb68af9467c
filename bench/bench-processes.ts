import { provisionInfrastructure, type ProvisionedInfrastructure } from '@baton/local-infra';
import { topicNames, type TopicNames } from '@baton/kafka';
import { bundleServices } from '../scripts/lib/service-bundle.js';
import { startProcess, type RunningService } from '../scripts/lib/service-supervisor.js';
import { withDeadline } from './deadline.js';
import { peakRssMiB } from './peak-rss.js';

/**
 * The environment of the services the bench starts: the broker and registry, topics of the run's
 * own under `topicPrefix`, and the bench's routing table.
 */
export function benchServiceEnv(
  brokers: readonly string[],
  schemaRegistryUrl: string,
  topicPrefix: string,
  partitions: number,
): Record<string, string> {
  return {
    KAFKA_BROKERS: brokers.join(','),
    SCHEMA_REGISTRY_URL: schemaRegistryUrl,
    BATON_TOPIC_PREFIX: topicPrefix,
    BATON_PARTITIONS: String(partitions),
    ROUTING_TABLE: 'bench/routing-table.yaml',
    // info, not warn: the supervisor learns a service is up from its service.started line.
    LOG_LEVEL: 'info',
  };
}

/** A service that has not logged service.started by then is not coming up. */
const START_DEADLINE_MS = 120_000;
/** A service that has not exited this long after SIGTERM is killed. */
const STOP_DEADLINE_MS = 30_000;

/**
 * The processes the bench starts (services, agents, relays), each its own Node process: started
 * with a deadline, and stopped with its peak RSS read first, so every process the bench ran
 * has its peak RSS in the result.
 */
export class BenchProcesses {
  private readonly running: RunningService[] = [];
  private readonly peaks: Record<string, number> = {};

  constructor(
    readonly env: Record<string, string>,
    private readonly progress: (text: string) => void,
  ) {}

  /** Starts `entry` with the bench's environment plus `extraEnv`; resolves once it has started. */
  async start(name: string, entry: string, extraEnv: Record<string, string> = {}): Promise<RunningService> {
    await bundleServices([entry]);
    const service = startProcess(name, entry, { ...this.env, ...extraEnv }, false);
    this.running.push(service);
    await withDeadline(service.started, `${name}: starting`, START_DEADLINE_MS, this.progress, 10_000);
    return service;
  }

  /** Peak RSS of every process the bench ran, in MiB: those stopped, and those still running now. */
  async peakRssMiB(): Promise<Record<string, number>> {
    for (const service of this.running) await this.readPeak(service);
    return { ...this.peaks };
  }

  /** Reads its peak RSS, then stops it (SIGTERM, SIGKILL after STOP_DEADLINE_MS). */
  async stop(service: RunningService): Promise<void> {
    await this.readPeak(service);
    const index = this.running.indexOf(service);
    if (index >= 0) this.running.splice(index, 1);
    if (service.child.exitCode !== null || service.child.signalCode !== null) return;
    service.child.kill('SIGTERM');
    const killer = setTimeout(() => {
      this.progress(`${service.name}: no exit ${STOP_DEADLINE_MS / 1000} s after SIGTERM, killing it`);
      service.child.kill('SIGKILL');
    }, STOP_DEADLINE_MS);
    try {
      await service.exited;
    } finally {
      clearTimeout(killer);
    }
  }

  /** Stops every process still running, each even when another fails to stop. */
  async stopAll(): Promise<void> {
    await Promise.allSettled([...this.running].map((service) => this.stop(service)));
  }

  private async readPeak(service: RunningService): Promise<void> {
    if (service.child.exitCode !== null || service.child.signalCode !== null) return;
    try {
      this.peaks[service.name] = await peakRssMiB(service.child.pid);
    } catch {
      // Exited meanwhile: the last reading, if any, stands.
    }
  }
}

/** What a bench entry runs on: Kafka and the registry, the run's topics, and its processes. */
export interface BenchRun {
  infrastructure: ProvisionedInfrastructure;
  brokers: string[];
  topics: TopicNames;
  processes: BenchProcesses;
}

/** Provisions Kafka and the registry as `npm start` does, and names a run of its own: `bench-<time>` topics. */
export async function startBenchRun(partitions: number, progress: (text: string) => void): Promise<BenchRun> {
  const infrastructure = await provisionInfrastructure();
  const brokers = infrastructure.kafkaBrokers;
  const topics = topicNames(`bench-${Date.now().toString(36)}`);
  const processes = new BenchProcesses(
    benchServiceEnv(brokers, infrastructure.schemaRegistryUrl, topics.prefix, partitions),
    progress,
  );
  return { infrastructure, brokers, topics, processes };
}
