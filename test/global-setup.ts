import type { TestProject } from 'vitest/node';
import { provisionInfrastructure } from '@baton/local-infra';

/**
 * One broker and one registry for the whole integration run: those named by KAFKA_BROKERS and
 * SCHEMA_REGISTRY_URL, else containers, else local JVMs (see @baton/local-infra).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const infrastructure = await provisionInfrastructure();
  project.provide('kafkaBrokers', infrastructure.kafkaBrokers);
  project.provide('schemaRegistryUrl', infrastructure.schemaRegistryUrl);
  return () => infrastructure.stop();
}
