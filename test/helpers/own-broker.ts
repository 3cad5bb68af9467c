import {
  isContainerRuntimeAvailable,
  startKafkaContainer,
  startLocalKafka,
  type StartedKafka,
} from '@baton/local-infra';

/**
 * A broker of a test's own, for a test that takes Kafka away: a container where a Docker engine
 * answers, else a local JVM, as the shared broker is provisioned.
 */
export async function startOwnBroker(): Promise<StartedKafka> {
  return (await isContainerRuntimeAvailable()) ? startKafkaContainer() : startLocalKafka();
}
