import { BatonError } from '@baton/errors';
import { replicationOf } from './server-properties.js';

export type InfrastructureSource = 'environment' | 'containers' | 'local-jvm';

export type KafkaPlan = { source: 'environment'; brokers: string[] } | { source: 'containers' | 'local-jvm' };
export type RegistryPlan = { source: 'environment'; url: string } | { source: 'containers' | 'local-jvm' };

export interface ProvisioningPlan {
  kafka: KafkaPlan;
  registry: RegistryPlan;
}

/** The checks a plan may need, asked only when the environment does not name both services. */
export interface ProvisioningProbes {
  isContainerRuntimeAvailable(): Promise<boolean>;
  /** What the local JVM path lacks, in words for a person; empty when it can run. */
  findMissingJavaTools(): string[];
}

/**
 * Chooses, for Kafka and the registry each, the first of: the environment (KAFKA_BROKERS,
 * SCHEMA_REGISTRY_URL), containers when a Docker engine answers, a local JVM when Java and Maven
 * are installed. Naming only one service in the environment is allowed: the other is started,
 * e.g. a local registry beside a shared broker, which works because Apicurio keeps its schemas in
 * memory and needs no Kafka.
 */
export async function planProvisioning(
  env: Record<string, string | undefined>,
  probes: ProvisioningProbes,
): Promise<ProvisioningPlan> {
  const brokers = parseBrokerList(env['KAFKA_BROKERS']);
  const url = parseRegistryUrl(env['SCHEMA_REGISTRY_URL']);
  if (brokers && url) return { kafka: { source: 'environment', brokers }, registry: { source: 'environment', url } };

  const source = (await probes.isContainerRuntimeAvailable()) ? 'containers' : 'local-jvm';
  if (source === 'local-jvm') {
    const missing = probes.findMissingJavaTools();
    if (missing.length > 0) throw unavailable(brokers === undefined, url === undefined, missing);
  }
  return {
    kafka: brokers ? { source: 'environment', brokers } : { source },
    registry: url ? { source: 'environment', url } : { source },
  };
}

/** How a local Kafka is asked for: secured, and of how many nodes. */
export interface LocalKafkaShape {
  securedKafka?: boolean | undefined;
  /** @default 1 */
  kafkaNodes?: number | undefined;
}

/** One line for a person: where each service will come from, and the local Kafka's shape. */
export function describePlan({ kafka, registry }: ProvisioningPlan, shape: LocalKafkaShape = {}): string {
  const describe = (service: string, plan: KafkaPlan | RegistryPlan): string => {
    if ('brokers' in plan) return `${service} at ${plan.brokers.join(',')} (KAFKA_BROKERS)`;
    if ('url' in plan) return `${service} at ${plan.url} (SCHEMA_REGISTRY_URL)`;
    return `${service} started ${plan.source === 'containers' ? 'in a container' : 'as a local JVM'}`;
  };
  const nodes = shape.kafkaNodes ?? 1;
  const kafkaShown = shape.securedKafka
    ? `${describe('Kafka', kafka)}, secured (SASL_SSL and mutual TLS only, ACLs enforced)`
    : nodes > 1 && kafka.source === 'local-jvm'
      ? `Kafka started as a cluster of ${nodes} local JVMs (every topic replicated ${replicationOf(nodes).replicationFactor} times)`
      : describe('Kafka', kafka);
  return `using ${kafkaShown} and ${describe('a schema registry', registry)}`;
}

function unavailable(needKafka: boolean, needRegistry: boolean, missing: string[]): BatonError {
  const lacking = [
    needKafka && 'Kafka (KAFKA_BROKERS is not set)',
    needRegistry && 'schema registry (SCHEMA_REGISTRY_URL is not set)',
  ].filter(Boolean);
  return new BatonError(
    'INFRA_UNAVAILABLE',
    `No ${lacking.join(' and no ')} can be provisioned: no Docker engine answers, and this machine lacks ${missing.join(' and ')}. ` +
      'Install Java 17+ and Maven 3.8+ (Baton then fetches Kafka and Apicurio Registry from Maven Central), ' +
      'or start a Docker engine, or set KAFKA_BROKERS and SCHEMA_REGISTRY_URL to running services. Node 20.19+ is needed in every case.',
    { details: { missing } },
  );
}

const BROKER = /^(?:\[[0-9A-Fa-f:.]+\]|[^\s:[\]]+):(\d{1,5})$/;

/** KAFKA_BROKERS: comma-separated host:port pairs. Unset or blank means "not given". */
export function parseBrokerList(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const brokers = value
    .split(',')
    .map((broker) => broker.trim())
    .filter((broker) => broker !== '');
  for (const broker of brokers) {
    const port = Number(BROKER.exec(broker)?.[1]);
    if (!(port >= 1 && port <= 65_535)) {
      throw new BatonError(
        'CONFIG_INVALID',
        `KAFKA_BROKERS must be comma-separated host:port pairs; "${broker}" is not one.`,
        {
          details: { variable: 'KAFKA_BROKERS', value },
        },
      );
    }
  }
  return brokers;
}

/** SCHEMA_REGISTRY_URL: an http(s) URL, returned without a trailing slash. Unset or blank means "not given". */
export function parseRegistryUrl(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const url = URL.canParse(value.trim()) ? new URL(value.trim()) : undefined;
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new BatonError('CONFIG_INVALID', `SCHEMA_REGISTRY_URL must be an http or https URL; "${value}" is not one.`, {
      details: { variable: 'SCHEMA_REGISTRY_URL', value },
    });
  }
  return url.href.replace(/\/+$/, '');
}
