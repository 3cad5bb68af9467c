/**
 * `npm run watch`: follows a running Baton's outcome events and replies to the user, decoded, one
 * line each, until Ctrl-C.
 */
import { randomUUID } from 'node:crypto';
import { createKafka, LONG_POLL_MAX_WAIT_MS, topicNames } from '@baton/kafka';
import { SchemaRegistryClient, createHandoffCodec, createOutcomeCodec } from '@baton/wire';
import { loadConnection } from './lib/local-connection.js';

const connection = await loadConnection();
const topics = topicNames(connection.topicPrefix);
const registry = new SchemaRegistryClient({ url: connection.schemaRegistryUrl });
const [codec, outcomes] = await Promise.all([createHandoffCodec(registry), createOutcomeCodec(registry)]);
const consumer = createKafka({ brokers: connection.kafkaBrokers, clientId: 'baton-watch' }).consumer({
  groupId: `baton-watch-${randomUUID()}`,
  maxWaitTimeInMs: LONG_POLL_MAX_WAIT_MS,
});
await consumer.connect();
await consumer.subscribe({
  topics: [topics.events, topics.userReplies],
  fromBeginning: process.argv.includes('--from-beginning'),
});
await consumer.run({
  eachMessage: async ({ topic, message }) => {
    if (message.value === null) return;
    if (topic === topics.events) {
      const event = await outcomes.decode(message.value);
      const target = event.target ? ` -> ${event.target}` : '';
      const why = event.error_code ? ` [${event.error_code}]` : event.detail ? ` (${event.detail})` : '';
      process.stdout.write(
        `${event.time}  ${event.task_id}  ${event.agent_id}: ${event.outcome} ${event.handoff_type}${target}${why}\n`,
      );
    } else {
      const reply = await codec.decode(message.value);
      const data = reply.payload.data as { message?: string };
      process.stdout.write(
        `${reply.metadata.timestamp}  ${reply.metadata.task_id}  ${reply.metadata.sender_id} says to the user: ${data.message ?? ''}\n`,
      );
    }
  },
});
const stop = async (): Promise<void> => {
  await consumer.disconnect();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
