/**
 * `npm run watch`: follows a running Baton's outcome events and replies to the user, decoded, one
 * line each, until Ctrl-C.
 */
import { randomUUID } from 'node:crypto';
import { createKafka, kafkaSecurityFromEnv, topicNames, TopicReader } from '@baton/kafka';
import { SchemaRegistryClient, createHandoffCodec, createOutcomeCodec, registryOptionsFromEnv } from '@baton/wire';
import { kafkaEnvOf, loadConnection, registryEnvOf } from './lib/local-connection.js';

const connection = await loadConnection();
const topics = topicNames(connection.topicPrefix);
const registry = new SchemaRegistryClient(
  registryOptionsFromEnv(registryEnvOf(connection), connection.schemaRegistryUrl),
);
const [codec, outcomes] = await Promise.all([createHandoffCodec(registry), createOutcomeCodec(registry)]);
const reader = new TopicReader({
  kafka: createKafka({
    brokers: connection.kafkaBrokers,
    clientId: 'baton-watch',
    security: kafkaSecurityFromEnv(kafkaEnvOf(connection)),
  }),
  groupId: `baton-watch-${randomUUID()}`,
  topics: [topics.events, topics.userReplies],
  fromBeginning: process.argv.includes('--from-beginning'),
  onRecord: async ({ topic, value }) => {
    if (value === null) return;
    if (topic === topics.events) {
      const event = await outcomes.decode(value);
      const target = event.target ? ` -> ${event.target}` : '';
      const why = event.error_code ? ` [${event.error_code}]` : event.detail ? ` (${event.detail})` : '';
      process.stdout.write(
        `${event.time}  ${event.task_id}  ${event.agent_id}: ${event.outcome} ${event.handoff_type}${target}${why}\n`,
      );
    } else {
      const reply = await codec.decode(value);
      const data = reply.payload.data as { message?: string };
      process.stdout.write(
        `${reply.metadata.timestamp}  ${reply.metadata.task_id}  ${reply.metadata.sender_id} says to the user: ${data.message ?? ''}\n`,
      );
    }
  },
});
await reader.start();
const stop = async (): Promise<void> => {
  await reader.stop();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
