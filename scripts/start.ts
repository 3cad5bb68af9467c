/**
 * `npm start`: brings up Baton's infrastructure (Kafka and the schema registry) for a local run,
 * prints where to reach it, and holds it until Ctrl-C or SIGTERM, then stops what it started.
 */
import { provisionInfrastructure } from '@baton/local-infra';
import { SchemaRegistryClient, createHandoffCodec } from '@baton/wire';

function log(event: string, fields: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'info', event, ...fields })}\n`);
}

const infrastructure = await provisionInfrastructure();
try {
  // Registering the wire schema up front proves the registry works and gives publishers its id.
  const codec = await createHandoffCodec(new SchemaRegistryClient({ url: infrastructure.schemaRegistryUrl }));
  log('baton.ready', {
    kafkaBrokers: infrastructure.kafkaBrokers.join(','),
    kafkaSource: infrastructure.source,
    schemaRegistryUrl: infrastructure.schemaRegistryUrl,
    registrySource: infrastructure.registrySource,
    handoffSchemaId: codec.schemaId,
  });
  process.stderr.write(
    `\nBaton is up. Kafka: ${infrastructure.kafkaBrokers.join(',')}  Schema registry: ${infrastructure.schemaRegistryUrl}\n` +
      `Point your own clients at them with KAFKA_BROKERS and SCHEMA_REGISTRY_URL. Ctrl-C stops everything.\n\n`,
  );
} catch (error) {
  await infrastructure.stop();
  throw error;
}

await new Promise<void>((resolve) => {
  process.once('SIGINT', resolve);
  process.once('SIGTERM', resolve);
});
log('baton.stopping', {});
await infrastructure.stop();
log('baton.stopped', {});
