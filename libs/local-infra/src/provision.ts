import { BatonError } from '@baton/errors';
import { waitForBroker } from '@baton/kafka';
import { findMissingJavaTools } from './java-tools.js';
import { printProgress, type ProgressListener } from './progress.js';
import {
  describePlan,
  planProvisioning,
  type InfrastructureSource,
  type KafkaPlan,
  type RegistryPlan,
} from './provisioning-plan.js';
import { isContainerRuntimeAvailable, startKafkaContainer, startRegistryContainer } from './start-containers.js';
import { startLocalKafka } from './start-local-kafka.js';
import { startLocalRegistry } from './start-local-registry.js';
import { startTogether, stopAll, type StartedKafka, type StartedRegistry } from './started-services.js';
import { waitForHttpOk } from './wait-for-http.js';

export interface ProvisionedInfrastructure {
  kafkaBrokers: string[];
  /** The Confluent-compatible schema registry API. */
  schemaRegistryUrl: string;
  /** Where Kafka came from. */
  source: InfrastructureSource;
  /** Where the registry came from; differs from `source` when the environment named only one of the two. */
  registrySource: InfrastructureSource;
  /** Stops whatever was started here, and nothing named by the environment. Safe to call more than once. */
  stop(): Promise<void>;
}

export interface ProvisionOptions {
  /** @default lines on stderr prefixed with [baton] */
  onProgress?: ProgressListener;
  /** @default process.env */
  env?: Record<string, string | undefined>;
}

/** How long a broker or registry named by the environment gets to answer before we give up on it. */
const ENVIRONMENT_CHECK_TIMEOUT_MS = 15_000;

/**
 * A Kafka broker and a schema registry to run against: those named by KAFKA_BROKERS and
 * SCHEMA_REGISTRY_URL, else containers when a Docker engine answers, else JVMs started here from
 * Maven Central, the two side by side. Whatever is started here is also killed if this process
 * exits or is interrupted before `stop()`.
 */
export async function provisionInfrastructure(options: ProvisionOptions = {}): Promise<ProvisionedInfrastructure> {
  const onProgress = options.onProgress ?? printProgress;
  const plan = await planProvisioning(options.env ?? process.env, {
    isContainerRuntimeAvailable,
    findMissingJavaTools,
  });
  onProgress(describePlan(plan));
  const [kafka, registry] = await startTogether<[StartedKafka, StartedRegistry]>([
    provideKafka(plan.kafka, onProgress),
    provideRegistry(plan.registry, onProgress),
  ]);
  let stopping: Promise<void> | undefined;
  return {
    kafkaBrokers: kafka.brokers,
    schemaRegistryUrl: registry.url,
    source: plan.kafka.source,
    registrySource: plan.registry.source,
    stop: () => {
      stopping ??= stopAll([kafka, registry]);
      return stopping;
    },
  };
}

async function provideKafka(plan: KafkaPlan, onProgress: ProgressListener): Promise<StartedKafka> {
  switch (plan.source) {
    case 'containers':
      return startKafkaContainer(onProgress);
    case 'local-jvm':
      return startLocalKafka({ onProgress });
    case 'environment':
      try {
        await waitForBroker(plan.brokers, { timeoutMs: ENVIRONMENT_CHECK_TIMEOUT_MS });
      } catch (error) {
        throw new BatonError(
          'INFRA_UNAVAILABLE',
          `KAFKA_BROKERS names ${plan.brokers.join(',')}, but no broker there answered.`,
          { cause: error },
        );
      }
      return { brokers: plan.brokers, stop: async () => undefined };
  }
}

async function provideRegistry(plan: RegistryPlan, onProgress: ProgressListener): Promise<StartedRegistry> {
  switch (plan.source) {
    case 'containers':
      return startRegistryContainer(onProgress);
    case 'local-jvm':
      return startLocalRegistry({ onProgress });
    case 'environment':
      try {
        await waitForHttpOk(`${plan.url}/subjects`, { timeoutMs: ENVIRONMENT_CHECK_TIMEOUT_MS });
      } catch (error) {
        throw new BatonError(
          'INFRA_UNAVAILABLE',
          `SCHEMA_REGISTRY_URL is ${plan.url}, but GET ${plan.url}/subjects did not answer 200.`,
          { cause: error },
        );
      }
      return { url: plan.url, stop: async () => undefined };
  }
}
