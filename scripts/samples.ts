/**
 * `npm run samples`: publishes the sample handoffs (an escalation, a refund and a purchase, a
 * workflow) to the router's inbound topic of a running Baton, so a newcomer sees them flow (follow
 * them with `npm run watch`), and opens one negotiated escalation as an agent or the gateway would,
 * which the tracker then runs.
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { ContextStore, TransactionalSender, createKafka, kafkaSecurityFromEnv, topicNames } from '@baton/kafka';
import { buildHandoff, type HandoffMessage } from '@baton/protocol';
import { DEFAULT_INLINE_MAX_BYTES, controlTopicCreator, openNegotiation, openingRecords } from '@baton/negotiation';
import { signingSettingsFromEnv } from '@baton/message-signing';
import {
  HandoffPublisher,
  createLogger,
  integerSetting,
  messageStages,
  personalDataContextStage,
  personalDataKeyRing,
} from '@baton/runtime';
import { EventsCodec, SchemaRegistryClient, registryOptionsFromEnv, serviceCodecs } from '@baton/wire';
import { kafkaEnvOf, loadConnection, registryEnvOf } from './lib/local-connection.js';

const require = createRequire(import.meta.url);
const connection = await loadConnection();
const topics = topicNames(connection.topicPrefix);
const registry = new SchemaRegistryClient(
  registryOptionsFromEnv(registryEnvOf(connection), connection.schemaRegistryUrl),
);
// What npm start gave the local tools: the samples sign and encrypt as a service does; they verify nothing.
const messageEnv = { ...connection.messageEnv, ...process.env };
const messageConfig = {
  signing: signingSettingsFromEnv({ ...messageEnv, BATON_SIGNATURES: 'off' }),
  personalDataKeyRingFile: messageEnv.BATON_PII_KEYRING_FILE,
};
const logger = createLogger('samples');
const keyRing = personalDataKeyRing(messageConfig, logger);
const stages = messageStages(messageConfig, logger, undefined, keyRing);
const { codec } = serviceCodecs(registry, stages);
const eventsCodec = EventsCodec.unregistered(registry, stages);
await Promise.all([codec.register(), eventsCodec.register()]);
const kafka = createKafka({
  brokers: connection.kafkaBrokers,
  clientId: 'baton-samples',
  security: kafkaSecurityFromEnv(kafkaEnvOf(connection)),
});
const publisher = new HandoffPublisher(kafka, codec);

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

// The reference escalation, as a new message and task so it is processed on every run.
const seed = structuredClone(require('@baton/schemas/fixtures/seed-000-escalation-full.json')) as HandoffMessage;
delete seed.metadata.expiration_time;
const escalation = buildHandoff({
  ...seed,
  metadata: { ...seed.metadata, message_id: undefined, timestamp: undefined, task_id: `task-${randomUUID()}` },
} as never);

// The workflow: a requirement the planner splits into 10 subtasks, each worked, compiled and reviewed 3 times.
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
  ['escalation: a network fault escalated to technical support', escalation],
  [
    'customer service: a refund of a broken item',
    userSays('My router arrived broken, I want a refund.', { user_id: 'cust-1001', name: 'Alice Smith' }),
  ],
  [
    'customer service: a purchase',
    userSays('I would like to buy the RouterX-Pro mesh kit. What is the price?', {
      user_id: 'cust-1002',
      name: 'Bob Jones',
    }),
  ],
  ['workflow: a requirement split into 10 subtasks, reviewed 3 rounds each', requirement],
] as const;

for (const [title, message] of samples) {
  const published = await publisher.publish(topics.inbound, message);
  process.stdout.write(
    `${JSON.stringify({ event: 'sample.published', title, task_id: message.metadata.task_id, message_id: message.metadata.message_id, ...published })}\n`,
  );
}
await publisher.close();

// Negotiated escalation: technical support offers the escalation to the level-3 experts by negotiation
// rather than sending it. They accept: "Level3NetworkExpertAgent" is their card's name. The tracker
// sends them the context and they run their ESCALATION handler on it. No fallback_action: the
// tracker would ask it as an agent.
const negotiated = buildHandoff({
  ...seed,
  metadata: {
    ...seed.metadata,
    message_id: undefined,
    timestamp: undefined,
    sender_id: 'technical_support_agent_pool',
    recipient_id: 'level3_network_expert_agent_pool',
    task_id: `task-${randomUUID()}`,
  },
  instructions: { ...seed.instructions, failure_handling_strategy: { retry_count: 1 } },
} as never);
const contexts = new ContextStore({ kafka, topic: topics.contexts });
const sender = new TransactionalSender(kafka, `${topics.prefix}.samples`);
const opening = await openNegotiation(
  negotiated,
  {
    reason: 'root cause analysis needs a level-3 network expert',
    desired_agent_type: 'Level3NetworkExpertAgent',
    summary: negotiated.context.historical_data_summary ?? '',
    taskDescription: negotiated.context.historical_data_summary,
  },
  {
    contexts,
    contextStage: personalDataContextStage(keyRing),
    inlineMaxBytes: DEFAULT_INLINE_MAX_BYTES,
    // Made by the agent when it started; created here only for a Baton started without it.
    ensureControlTopic: controlTopicCreator({
      kafka,
      topics,
      numPartitions: integerSetting(process.env, 'BATON_PARTITIONS', 6),
      replicationFactor: integerSetting(process.env, 'BATON_REPLICATION_FACTOR', 1),
    }),
  },
);
await sender.send(
  openingRecords({ lifecycleCodec: eventsCodec.lifecycle, stagedCodec: eventsCodec.staged }, topics, opening),
);
process.stdout.write(
  `${JSON.stringify({
    event: 'sample.negotiated',
    title: 'negotiated escalation: the network escalation offered to the level-3 experts by negotiation',
    task_id: negotiated.metadata.task_id,
    negotiation_id: opening.request.message_id,
    receiver: opening.request.receiver_id,
  })}\n`,
);
await Promise.all([sender.close(), contexts.close()]);
