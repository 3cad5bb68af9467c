import { KafkaContainer } from '@testcontainers/kafka';
import { GenericContainer, Wait, getContainerRuntimeClient, type StartedTestContainer } from 'testcontainers';
import { formatDuration, printProgress, type ProgressListener } from './progress.js';
import type { StartedKafka, StartedRegistry } from './started-services.js';
import { storeGlobalCompatibility } from './global-compatibility.js';
import { CCOMPAT_PATH } from './start-local-registry.js';
import { warmUpCoordinators } from './warm-up.js';

/** Confluent Platform 7.9 ships Apache Kafka 3.9, the version the local JVM broker runs. */
export const KAFKA_IMAGE = 'confluentinc/cp-kafka:7.9.0';
/** The Apicurio build the local JVM registry runs, with in-memory storage. */
export const REGISTRY_IMAGE = 'apicurio/apicurio-registry-mem:2.6.13.Final';

/** KafkaContainer's PLAINTEXT listener, advertised to clients with the host's mapped port. */
const KAFKA_CLIENT_PORT = 9093;
const REGISTRY_PORT = 8080;

/** True when testcontainers finds a Docker-compatible engine that answers. */
export async function isContainerRuntimeAvailable(): Promise<boolean> {
  try {
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

/**
 * A single-node KRaft broker in a container. If this process dies without stopping it,
 * testcontainers' reaper (Ryuk) removes it.
 */
export async function startKafkaContainer(onProgress: ProgressListener = printProgress): Promise<StartedKafka> {
  const startedAt = Date.now();
  onProgress(`starting ${KAFKA_IMAGE} (the first run pulls the image)...`);
  const container = await new KafkaContainer(KAFKA_IMAGE)
    .withKraft()
    .withEnvironment({ KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false', KAFKA_NUM_PARTITIONS: '1' })
    .start();
  const brokers = [`${container.getHost()}:${container.getMappedPort(KAFKA_CLIENT_PORT)}`];
  try {
    await warmUpCoordinators(brokers);
  } catch (error) {
    await container.stop();
    throw error;
  }
  onProgress(`kafka container up on ${brokers[0]} in ${formatDuration(Date.now() - startedAt)}`);
  return { brokers, stop: stopOnce(container) };
}

/**
 * Apicurio Registry with in-memory storage in a container. It keeps schemas in memory and never
 * talks to Kafka, so it needs no network shared with the broker.
 */
export async function startRegistryContainer(onProgress: ProgressListener = printProgress): Promise<StartedRegistry> {
  const startedAt = Date.now();
  onProgress(`starting ${REGISTRY_IMAGE} (the first run pulls the image)...`);
  const container = await new GenericContainer(REGISTRY_IMAGE)
    .withExposedPorts(REGISTRY_PORT)
    .withWaitStrategy(Wait.forHttp(`${CCOMPAT_PATH}/subjects`, REGISTRY_PORT).forStatusCode(200))
    .withStartupTimeout(120_000)
    .start();
  const address = `${container.getHost()}:${container.getMappedPort(REGISTRY_PORT)}`;
  const url = `http://${address}${CCOMPAT_PATH}`;
  try {
    // The global rule the local registry also stores: see storeGlobalCompatibility.
    await storeGlobalCompatibility(url);
  } catch (error) {
    await container.stop();
    throw error;
  }
  onProgress(`schema registry container up on ${address} in ${formatDuration(Date.now() - startedAt)}`);
  return { url, stop: stopOnce(container) };
}

function stopOnce(container: StartedTestContainer): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= container.stop().then(() => undefined);
    return stopping;
  };
}
