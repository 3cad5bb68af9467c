import type { TestProject } from 'vitest/node';
import { provisionInfrastructure, replicationOf } from '@baton/local-infra';
import { brokerCount } from '../scripts/lib/start-options.js';

/**
 * One broker and one registry for the whole integration run: those named by KAFKA_BROKERS and
 * SCHEMA_REGISTRY_URL, else containers, else local JVMs (see @baton/local-infra).
 * BATON_TEST_BROKERS=3 runs the suite on a local cluster of three instead, and the services it
 * starts replicate their topics as on `npm start -- --brokers 3` (BATON_REPLICATION_FACTOR, which
 * the workers and their service processes inherit).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const kafkaNodes = brokerCount([], process.env, 'BATON_TEST_BROKERS');
  const infrastructure = await provisionInfrastructure({ kafkaNodes });
  if (kafkaNodes > 1) process.env.BATON_REPLICATION_FACTOR ??= String(replicationOf(kafkaNodes).replicationFactor);
  project.provide('kafkaBrokers', infrastructure.kafkaBrokers);
  project.provide('schemaRegistryUrl', infrastructure.schemaRegistryUrl);
  return () => infrastructure.stop();
}
