import { join } from 'node:path';
import { BatonError, hasErrorCode } from '@baton/errors';
import { kafkaSecurityFromEnv, waitForBroker, type KafkaSecurity } from '@baton/kafka';
import { registryOptionsFromEnv, type SchemaRegistryOptions } from '@baton/wire';
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
import { startSecuredLocalKafka, type SecuredLocalKafka } from './start-secured-kafka.js';
import { startLocalRegistry } from './start-local-registry.js';
import { startTogether, stopAll, type StartedKafka, type StartedRegistry } from './started-services.js';
import { CredentialsRefusedError, waitForHttpOk } from './wait-for-http.js';

export interface ProvisionedInfrastructure {
  kafkaBrokers: string[];
  /** The Confluent-compatible schema registry API. */
  schemaRegistryUrl: string;
  /** Where Kafka came from. */
  source: InfrastructureSource;
  /** Where the registry came from; differs from `source` when the environment named only one of the two. */
  registrySource: InfrastructureSource;
  /** The secured local broker, when `securedKafka` asked for one: its CA, its users, its super user. */
  securedKafka?: SecuredLocalKafka;
  /** Stops whatever was started here, and nothing named by the environment. Safe to call more than once. */
  stop(): Promise<void>;
}

export interface ProvisionOptions {
  /** @default lines on stderr prefixed with [baton] */
  onProgress?: ProgressListener;
  /** @default process.env */
  env?: Record<string, string | undefined>;
  /**
   * Where a local broker and registry write their own output, as kafka.log and registry.log
   * (appended). @default nowhere: only the last lines are kept, to explain a failed start
   */
  logDir?: string;
  /**
   * Aborting it gives up provisioning: whatever was started is stopped and the promise rejects.
   * A container start already under way is waited for, then stopped.
   */
  signal?: AbortSignal;
  /**
   * Start the local broker secured (startSecuredLocalKafka: SASL_SSL and mutual TLS only, the
   * StandardAuthorizer on), from the local JVM whether or not a Docker engine answers. Refused
   * when KAFKA_BROKERS names a cluster: its security is its own.
   */
  securedKafka?: boolean;
  /**
   * Start a local cluster of this many nodes (startLocalKafka's `nodes`) from the local JVM, whether
   * or not a Docker engine answers. @default 1. Refused above 1 when KAFKA_BROKERS names a cluster,
   * or with `securedKafka`, whose local broker is a single node.
   */
  kafkaNodes?: number;
}

/** How long a broker or registry named by the environment gets to answer before we give up on it. */
const ENVIRONMENT_CHECK_TIMEOUT_MS = 15_000;

/**
 * A Kafka broker and a schema registry to run against: those named by KAFKA_BROKERS and
 * SCHEMA_REGISTRY_URL, else containers when a Docker engine answers, else JVMs started here from
 * Maven Central, the two side by side. Whatever is started here is also killed if this process
 * exits, or is interrupted by a signal nothing else handles, before `stop()`. Local JVMs run in a
 * process group of their own: a terminal's Ctrl-C reaches the caller, which stops them when it is
 * ready to (after the services using them).
 */
export async function provisionInfrastructure(options: ProvisionOptions = {}): Promise<ProvisionedInfrastructure> {
  const onProgress = options.onProgress ?? printProgress;
  const env = options.env ?? process.env;
  const plan = await planProvisioning(env, {
    isContainerRuntimeAvailable,
    findMissingJavaTools,
  });
  const { logDir, signal, securedKafka } = options;
  const kafkaNodes = options.kafkaNodes ?? 1;
  if (kafkaNodes > 1) {
    if (securedKafka) {
      throw new BatonError(
        'CONFIG_INVALID',
        'the secured local broker is a single node: ask for one broker, or none secured',
      );
    }
    if (plan.kafka.source === 'environment') {
      throw new BatonError(
        'CONFIG_INVALID',
        `a local cluster of ${kafkaNodes} brokers was asked for, but KAFKA_BROKERS names a cluster: unset it to start one here`,
        { path: '/env/KAFKA_BROKERS' },
      );
    }
    const missing = findMissingJavaTools();
    if (missing.length > 0) {
      throw new BatonError('INFRA_UNAVAILABLE', `a local cluster of brokers needs ${missing.join(' and ')}`);
    }
    plan.kafka = { source: 'local-jvm' };
  }
  if (securedKafka) {
    if (plan.kafka.source === 'environment') {
      throw new BatonError(
        'CONFIG_INVALID',
        'a secured local broker was asked for, but KAFKA_BROKERS names a cluster: unset it, or connect to that cluster securely with KAFKA_SECURITY_PROTOCOL and the other KAFKA_* variables',
        { path: '/env/KAFKA_BROKERS' },
      );
    }
    const missing = findMissingJavaTools();
    if (missing.length > 0) {
      throw new BatonError('INFRA_UNAVAILABLE', `the secured local broker needs ${missing.join(' and ')}`);
    }
    plan.kafka = { source: 'local-jvm' };
  }
  onProgress(describePlan(plan, { securedKafka, kafkaNodes }));
  const logFile = (name: string): string | undefined => (logDir === undefined ? undefined : join(logDir, name));
  const [kafka, registry] = await startTogether<[StartedKafka, StartedRegistry]>([
    securedKafka
      ? startSecuredLocalKafka({ onProgress, logFile: logFile('kafka.log'), signal })
      : provideKafka(plan.kafka, {
          nodes: kafkaNodes,
          onProgress,
          logFile: logFile('kafka.log'),
          signal,
          // A cluster the environment names is checked as the services will connect to it.
          security: plan.kafka.source === 'environment' ? kafkaSecurityFromEnv(env) : undefined,
        }),
    provideRegistry(plan.registry, {
      onProgress,
      logFile: logFile('registry.log'),
      signal,
      // A registry the environment names is checked with the credentials and CA the services use.
      registry: plan.registry.source === 'environment' ? registryOptionsFromEnv(env, plan.registry.url) : undefined,
    }),
  ]);
  if (signal?.aborted) {
    await stopAll([kafka, registry]).catch(() => undefined);
    signal.throwIfAborted();
  }
  let stopping: Promise<void> | undefined;
  return {
    kafkaBrokers: kafka.brokers,
    schemaRegistryUrl: registry.url,
    source: plan.kafka.source,
    registrySource: plan.registry.source,
    ...(securedKafka ? { securedKafka: kafka as SecuredLocalKafka } : {}),
    stop: () => {
      stopping ??= stopAll([kafka, registry]);
      return stopping;
    },
  };
}

interface Provide {
  onProgress: ProgressListener;
  logFile: string | undefined;
  signal: AbortSignal | undefined;
  security?: KafkaSecurity | undefined;
}

async function provideKafka(
  plan: KafkaPlan,
  { nodes, onProgress, logFile, signal, security }: Provide & { nodes: number },
): Promise<StartedKafka> {
  switch (plan.source) {
    case 'containers':
      return startKafkaContainer(onProgress);
    case 'local-jvm':
      return startLocalKafka({ nodes, onProgress, logFile, signal });
    case 'environment':
      try {
        await waitForBroker(plan.brokers, { timeoutMs: ENVIRONMENT_CHECK_TIMEOUT_MS, signal, security });
      } catch (error) {
        // A broker that answered but refused the login or the handshake: its own message says why.
        if (hasErrorCode(error, 'KAFKA_AUTH_FAILED') || hasErrorCode(error, 'KAFKA_NOT_AUTHORIZED')) throw error;
        throw new BatonError(
          'INFRA_UNAVAILABLE',
          `KAFKA_BROKERS names ${plan.brokers.join(',')}, but no broker there answered.`,
          { cause: error },
        );
      }
      return { brokers: plan.brokers, stop: async () => undefined };
  }
}

async function provideRegistry(
  plan: RegistryPlan,
  { onProgress, logFile, signal, registry }: Provide & { registry?: SchemaRegistryOptions | undefined },
): Promise<StartedRegistry> {
  switch (plan.source) {
    case 'containers':
      return startRegistryContainer(onProgress);
    case 'local-jvm':
      return startLocalRegistry({ onProgress, logFile, signal });
    case 'environment':
      try {
        await waitForHttpOk(`${plan.url}/subjects`, {
          timeoutMs: ENVIRONMENT_CHECK_TIMEOUT_MS,
          signal,
          ...(registry?.basicAuth ? { basicAuth: registry.basicAuth } : {}),
          ...(registry?.ca ? { ca: registry.ca } : {}),
        });
      } catch (error) {
        if (error instanceof CredentialsRefusedError) {
          throw new BatonError(
            'REGISTRY_AUTH_FAILED',
            `SCHEMA_REGISTRY_URL is ${plan.url}, which refused the credentials (HTTP ${error.status}): check SCHEMA_REGISTRY_USERNAME and SCHEMA_REGISTRY_PASSWORD or its _FILE`,
            { cause: error },
          );
        }
        throw new BatonError(
          'INFRA_UNAVAILABLE',
          `SCHEMA_REGISTRY_URL is ${plan.url}, but GET ${plan.url}/subjects did not answer 200.`,
          { cause: error },
        );
      }
      return { url: plan.url, stop: async () => undefined };
  }
}
