/**
 * `npm run samples`: publishes the seeds' sample handoffs to the router's inbound topic of a
 * running Baton, so a newcomer sees them flow (follow them with `npm run watch`).
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { createKafka, topicNames } from '@baton/kafka';
import { buildHandoff, type HandoffMessage } from '@baton/protocol';
import { HandoffPublisher } from '@baton/runtime';
import { SchemaRegistryClient, createHandoffCodec } from '@baton/wire';
import { loadConnection } from './lib/local-connection.js';

const require = createRequire(import.meta.url);
const connection = await loadConnection();
const topics = topicNames(connection.topicPrefix);
const codec = await createHandoffCodec(new SchemaRegistryClient({ url: connection.schemaRegistryUrl }));
const publisher = new HandoffPublisher(
  createKafka({ brokers: connection.kafkaBrokers, clientId: 'baton-samples' }),
  codec,
);

function userSays(text: string, customer: { user_id: string; name: string }) {
  return buildHandoff({
    metadata: { sender_id: 'user', recipient_id: 'triage_agent', task_id: `task-${randomUUID()}` },
    context: {
      workflow_state: 'INITIAL_REQUEST',
      user_interaction_history: [
        { type: 'CHAT_MESSAGE', sender: 'User', content: text, timestamp: new Date().toISOString() },
      ],
    },
    payload: {
      handoff_type: 'TASK_TRANSFER',
      data: { issue_category: 'UNCLASSIFIED', task_summary: text, customer_info: customer },
    },
  });
}

// Seed 000's escalation, as a new message and task so it is processed on every run.
const seed = structuredClone(require('@baton/schemas/fixtures/seed-000-escalation-full.json')) as HandoffMessage;
delete seed.metadata.expiration_time;
const escalation = buildHandoff({
  ...seed,
  metadata: { ...seed.metadata, message_id: undefined, timestamp: undefined, task_id: `task-${randomUUID()}` },
} as never);

// Seed 003: a requirement the planner splits into 10 subtasks, each worked, compiled and reviewed 3 times.
const requirement = buildHandoff({
  metadata: { sender_id: 'user', recipient_id: 'planner_agent', task_id: `task-${randomUUID()}` },
  payload: {
    handoff_type: 'TASK_TRANSFER',
    data: {
      issue_category: 'WORKFLOW',
      task_summary: 'Write the operator guide for the new router firmware.',
      attributes: { subtasks: 10, max_review_rounds: 3 },
    },
  },
});

const samples = [
  ['seed 000: network escalation to technical support', escalation],
  [
    'seed 002: a refund of a broken item',
    userSays('My router arrived broken, I want a refund.', { user_id: 'cust-1001', name: 'Alice Smith' }),
  ],
  [
    'seed 002: a purchase',
    userSays('I would like to buy the RouterX-Pro mesh kit. What is the price?', {
      user_id: 'cust-1002',
      name: 'Bob Jones',
    }),
  ],
  ['seed 003: a requirement split into 10 subtasks, reviewed 3 rounds each', requirement],
] as const;

for (const [title, message] of samples) {
  const published = await publisher.publish(topics.inbound, message);
  process.stdout.write(
    `${JSON.stringify({ event: 'sample.published', title, task_id: message.metadata.task_id, message_id: message.metadata.message_id, ...published })}\n`,
  );
}
await publisher.close();
