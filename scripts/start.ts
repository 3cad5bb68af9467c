/**
 * `npm start`: Baton on this machine. Brings up Kafka and the schema registry (embedded local ones
 * when KAFKA_BROKERS is unset), then the router, every agent and the gateway as separate
 * processes; prints where to publish and how to watch; on Ctrl-C or SIGTERM stops the services
 * (they drain and commit) and then what it started.
 */
import { provisionInfrastructure } from '@baton/local-infra';
import { DEFAULT_TOPIC_PREFIX, topicNames } from '@baton/kafka';
import { gatewayEnvironment, startFleet } from './lib/fleet.js';
import { forgetConnection, saveConnection } from './lib/local-connection.js';
import { stopServices, type RunningService } from './lib/service-supervisor.js';

function log(event: string, fields: Record<string, unknown> = {}): void {
  process.stdout.write(
    `${JSON.stringify({ time: new Date().toISOString(), level: 'info', service: 'baton-start', event, ...fields })}\n`,
  );
}

const infrastructure = await provisionInfrastructure();
const topicPrefix = process.env.BATON_TOPIC_PREFIX ?? DEFAULT_TOPIC_PREFIX;
const env = {
  KAFKA_BROKERS: infrastructure.kafkaBrokers.join(','),
  SCHEMA_REGISTRY_URL: infrastructure.schemaRegistryUrl,
  BATON_TOPIC_PREFIX: topicPrefix,
};
// The gateway listens where the CLI looks by default; a credential with every role is made for
// this run unless BATON_API_KEYS names the credentials.
const gateway = gatewayEnvironment(process.env.GATEWAY_PORT ?? '8080', process.env.BATON_API_KEYS);
const services: RunningService[] = [];
let stopping: Promise<void> | undefined;

async function stopAll(exitCode: number): Promise<never> {
  stopping ??= (async () => {
    log('baton.stopping');
    await stopServices(services);
    await forgetConnection();
    await infrastructure.stop();
    log('baton.stopped');
  })();
  await stopping;
  process.exit(exitCode);
}

process.once('SIGINT', () => void stopAll(0));
process.once('SIGTERM', () => void stopAll(0));

try {
  const addresses = await startFleet(services, { env, gatewayEnv: gateway.env });
  for (const service of services) {
    void service.exited.then((code) => {
      if (!stopping) log('service.exited', { name: service.name, code });
    });
  }
  await saveConnection({
    ...env,
    kafkaBrokers: infrastructure.kafkaBrokers,
    schemaRegistryUrl: infrastructure.schemaRegistryUrl,
    topicPrefix,
    services: addresses,
  });
  const topics = topicNames(topicPrefix);
  log('baton.ready', { kafkaSource: infrastructure.source, ...env, services: addresses });
  process.stderr.write(
    [
      '',
      `Baton is up: Kafka ${env.KAFKA_BROKERS}, schema registry ${env.SCHEMA_REGISTRY_URL}`,
      `Publish handoffs to ${topics.inbound} (Avro, Confluent wire format, key = task_id).`,
      "  npm run samples    publishes the seeds' sample handoffs",
      ...(gateway.token === undefined
        ? []
        : [
            `  gateway            ${addresses.gateway}/ui/ (API, page and /openapi.json); for the CLI:`,
            `                     export BATON_GATEWAY_URL=${addresses.gateway} BATON_TOKEN=${gateway.token}`,
          ]),
      '  npm run watch      follows outcome events and replies to the user, decoded',
      ...Object.entries(addresses).map(([name, address]) => `  ${name.padEnd(28)} ${address}/healthz /readyz /metrics`),
      'Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
} catch (error) {
  log('baton.start_failed', { error: (error as Error).message });
  await stopAll(1);
}
