import { inject } from 'vitest';
import { createKafka, topicNames, type TopicNames } from '@baton/kafka';
import { parseHandoffOutcome, type HandoffMessage, type HandoffOutcome, type Immutable } from '@baton/protocol';
import { HandoffPublisher } from '@baton/runtime';
import {
  SchemaRegistryClient,
  createHandoffCodec,
  createOutcomeCodec,
  type HandoffCodec,
  type OutcomeCodec,
} from '@baton/wire';
import { collectRecords, type RecordCollector } from './record-collector.js';
import { startServiceProcess, type ServiceProcess } from './service-process.js';
import { uniqueName } from './unique-name.js';

export interface BatonRigOptions {
  /** Names the rig's topic prefix. */
  name: string;
  /** Folders of services/ to run besides the router, each as its own process. */
  agents: string[];
  /** Extra environment for the router (a routing table, say). */
  routerEnv?: Record<string, string>;
  /** @default 3 */
  partitions?: number;
  /** Extra environment of each process, by the name it runs as, read at each start (keys, modes). */
  serviceEnv?: (service: string) => Record<string, string>;
}

/** A Baton of separate processes on topics of its own, with what tests need to publish and read. */
export interface BatonRig {
  topics: TopicNames;
  codec: HandoffCodec;
  outcomeCodec: OutcomeCodec;
  publisher: HandoffPublisher;
  /** The running services by folder name, `router` included. */
  services: Record<string, ServiceProcess>;
  /** Starts one more instance of `agent`, registered as `name` and stopped with the rig. */
  addInstance(agent: string, name: string): Promise<ServiceProcess>;
  /** Starts the process of `entry` (a main.ts) on the rig's topics, registered as `name`, stopped with the rig. */
  addProcess(name: string, entry: string, extraEnv?: Record<string, string>): Promise<ServiceProcess>;
  /** A collector of `topic`, stopped with the rig. */
  collect(topic: string): Promise<RecordCollector>;
  /** The handoffs of `taskId` a collector has seen, decoded. */
  handoffs(collector: RecordCollector, taskId: string): Promise<Immutable<HandoffMessage>[]>;
  /** The outcome events of `taskId` an events collector has seen, decoded. */
  outcomes(events: RecordCollector, taskId: string): Promise<Immutable<HandoffOutcome>[]>;
  /** Stops collectors, publisher and services (SIGTERM); resolves with each service's exit code. */
  stop(): Promise<Record<string, number | null>>;
}

/** A stop slower than this is reported with what it waited for, to tell a slow stop's cause. */
const SLOW_STOP_MS = 15_000;

function stopTimer() {
  const started = performance.now();
  const marks: string[] = [];
  return {
    mark: (what: string) => marks.push(`${what} ${((performance.now() - started) / 1000).toFixed(1)} s`),
    report(rig: string) {
      if (performance.now() - started > SLOW_STOP_MS) console.warn(`rig ${rig} stopped slowly: ${marks.join(', ')}`);
    },
  };
}

export async function startBatonRig(options: BatonRigOptions): Promise<BatonRig> {
  const brokers = inject('kafkaBrokers');
  const registryUrl = inject('schemaRegistryUrl');
  const topics = topicNames(uniqueName(options.name));
  const env = (service: string) => ({
    KAFKA_BROKERS: brokers.join(','),
    SCHEMA_REGISTRY_URL: registryUrl,
    BATON_TOPIC_PREFIX: topics.prefix,
    BATON_PARTITIONS: String(options.partitions ?? 3),
    BATON_INSTANCE_ID: `${options.name}-${service}`,
    ...options.serviceEnv?.(service),
  });
  const services: Record<string, ServiceProcess> = {};
  // The router first: it creates the inbound topic and every inbox the agents read.
  services.router = await startServiceProcess('services/router/src/main.ts', {
    ...env('router'),
    ...options.routerEnv,
  });
  const agents = await Promise.all(
    options.agents.map((agent) => startServiceProcess(`services/${agent}/src/main.ts`, env(agent))),
  );
  options.agents.forEach((agent, index) => (services[agent] = agents[index] as ServiceProcess));
  const registry = new SchemaRegistryClient({ url: registryUrl });
  const [codec, outcomeCodec] = await Promise.all([createHandoffCodec(registry), createOutcomeCodec(registry)]);
  const publisher = new HandoffPublisher(createKafka({ brokers, clientId: uniqueName(options.name) }), codec);
  const collectors: RecordCollector[] = [];
  return {
    topics,
    codec,
    outcomeCodec,
    publisher,
    services,
    async addInstance(agent, name) {
      services[name] = await startServiceProcess(`services/${agent}/src/main.ts`, env(name));
      return services[name];
    },
    async addProcess(name, entry, extraEnv = {}) {
      services[name] = await startServiceProcess(entry, { ...env(name), ...extraEnv });
      return services[name];
    },
    async collect(topic) {
      const collector = await collectRecords(brokers, topic);
      collectors.push(collector);
      return collector;
    },
    handoffs: (collector, taskId) =>
      Promise.all(
        collector.records
          .filter((record) => record.key === taskId)
          .map((record) => codec.decode(record.value as Buffer)),
      ),
    outcomes: (events, taskId) =>
      Promise.all(
        events.records
          .filter((record) => record.key === taskId)
          .map(async (record) => parseHandoffOutcome(await outcomeCodec.decode(record.value as Buffer))),
      ),
    async stop() {
      const took = stopTimer();
      await publisher.close();
      took.mark('publisher');
      await Promise.all(collectors.map((collector) => collector.stop()));
      took.mark('collectors');
      const names = Object.keys(services);
      const codes = await Promise.all(
        names.map(async (name) => {
          const code = await services[name]?.stop('SIGTERM');
          took.mark(name);
          return code;
        }),
      );
      took.report(options.name);
      return Object.fromEntries(names.map((name, index) => [name, codes[index] ?? null]));
    },
  };
}
