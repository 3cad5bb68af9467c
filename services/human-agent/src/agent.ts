import { agentGroupId, defineAgent, type AgentHandler } from '@baton/agent-sdk';
import { compactedTopicSpec, createTopics } from '@baton/kafka';
import { component, handoffRecord, type HandoffServiceContext } from '@baton/runtime';
import { AnswerPublisher } from './answer-publisher.js';
import { HUMAN_AGENT, answerHandoff } from './operator-answer.js';
import { pendingRecord, pendingTopic } from './pending-record.js';
import { PendingReader } from './pending-reader.js';
import { registerPendingRoutes } from './pending-routes.js';
import { pendingEntryOf } from './pending-task.js';
import { PendingTasks } from './pending-tasks.js';

/** An approval or escalation waits in the pending topic, written in the same transaction as its offset. */
const hold: AgentHandler<'APPROVAL_REQUEST' | 'ESCALATION'> = (handoff, act, { logger }) => {
  act.emit(pendingRecord(pendingTopic(act.topics.prefix), pendingEntryOf(handoff, new Date())));
  logger.info({ event: 'pending.added', handoff_type: handoff.payload.handoff_type }, 'waiting for an operator');
};

interface Pending {
  tasks: PendingTasks;
  reader: PendingReader;
  publisher: AnswerPublisher;
}

const pendingOf = new WeakMap<HandoffServiceContext, Pending>();

/** The process's pending list, its reader and the operators' answer publisher: one per service. */
function pending(context: HandoffServiceContext): Pending {
  let parts = pendingOf.get(context);
  if (parts === undefined) {
    const { config, topics, kafka, logger } = context;
    const tasks = new PendingTasks();
    parts = {
      tasks,
      reader: new PendingReader({
        kafka,
        topic: pendingTopic(topics.prefix),
        groupId: `${agentGroupId(topics, HUMAN_AGENT)}.pending-reader.${config.instanceId}`,
        tasks,
        logger,
      }),
      publisher: new AnswerPublisher(kafka, `${agentGroupId(topics, HUMAN_AGENT)}.answers.${config.instanceId}`),
    };
    pendingOf.set(context, parts);
  }
  return parts;
}

/**
 * The pending topic read to its end and the answer publisher connected before the first handoff,
 * both kept until the consumer has drained.
 */
function pendingStore(context: HandoffServiceContext) {
  const { config, topics, logger } = context;
  const topic = pendingTopic(topics.prefix);
  const { tasks, reader, publisher } = pending(context);
  return component('pending-store', {
    start: async () => {
      await createTopics(context.kafka, [
        compactedTopicSpec(topic, { numPartitions: config.partitions, replicationFactor: config.replicationFactor }),
      ]);
      await Promise.all([reader.start(), publisher.connect()]);
      logger.info({ event: 'pending.loaded', topic, pending: tasks.list().length }, 'pending tasks loaded');
    },
    close: async () => {
      await Promise.all([reader.stop(), publisher.close()]);
    },
  });
}

/**
 * The human agent, with an HTTP API in place of console input: approvals and
 * escalations wait until an operator answers, and the answer goes back to the agent that asked.
 */
export const agent = defineAgent({
  id: HUMAN_AGENT,
  card: {
    name: 'HumanAgent',
    domain: 'human_review',
    description: 'A person: approvals and escalations wait until an operator answers over HTTP.',
    skills: [
      { name: 'approve_request', description: 'Approves or denies what an AI agent may not decide alone' },
      { name: 'handle_escalation', description: 'Takes over an escalated task' },
    ],
  },
  handlers: { APPROVAL_REQUEST: hold, ESCALATION: hold },
  components: (context) => [pendingStore(context)],
  routes(app, context) {
    const { topics, logger, codec } = context;
    const topic = pendingTopic(topics.prefix);
    registerPendingRoutes(app, {
      tasks: pending(context).tasks,
      async answer(entry, answer) {
        const message = answerHandoff(entry, answer);
        await pending(context).publisher.publish(handoffRecord(codec, topics.inbound, message), {
          topic,
          key: entry.task.task_id,
        });
        logger.info(
          {
            event: 'pending.answered',
            task_id: entry.task.task_id,
            message_id: message.metadata.message_id,
            correlation_id: message.metadata.correlation_id ?? null,
            decision: answer.decision,
            to: entry.task.sender,
          },
          'answered',
        );
        return message;
      },
    });
  },
});
