import { agentGroupId, defineAgent, type AgentHandler } from '@baton/agent-sdk';
import { createTopics } from '@baton/kafka';
import { handoffRecord } from '@baton/runtime';
import { AnswerPublisher } from './answer-publisher.js';
import { HUMAN_AGENT, answerHandoff } from './operator-answer.js';
import { pendingRecord, pendingTopic } from './pending-record.js';
import { PendingReader } from './pending-reader.js';
import { registerPendingRoutes } from './pending-routes.js';
import { pendingEntryOf } from './pending-task.js';
import { PendingTasks } from './pending-tasks.js';

/** An approval or escalation waits in the pending topic, written in the same transaction as its offset. */
const hold: AgentHandler = (handoff, act, { logger }) => {
  act.emit(pendingRecord(pendingTopic(act.topics.prefix), pendingEntryOf(handoff, new Date())));
  logger.info({ event: 'pending.added', handoff_type: handoff.payload.handoff_type }, 'waiting for an operator');
};

/**
 * Seed 002's human agent, with an HTTP API in place of the seed's console input: approvals and
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
  routes(app, context) {
    const { config, topics, kafka, logger, codec } = context;
    const topic = pendingTopic(topics.prefix);
    const tasks = new PendingTasks();
    const reader = new PendingReader({
      kafka,
      topic,
      groupId: `${agentGroupId(topics, HUMAN_AGENT)}.pending-reader.${config.instanceId}`,
      tasks,
      logger,
    });
    const publisher = new AnswerPublisher(kafka, `${agentGroupId(topics, HUMAN_AGENT)}.answers.${config.instanceId}`);
    // The chassis makes the app ready before its consumer starts and closes it after the consumer
    // has drained, so the pending list is loaded before the first handoff and kept to the last.
    app.addHook('onReady', async () => {
      await createTopics(config.kafkaBrokers, [
        {
          topic,
          numPartitions: config.partitions,
          replicationFactor: config.replicationFactor,
          configEntries: [{ name: 'cleanup.policy', value: 'compact' }],
        },
      ]);
      await Promise.all([reader.start(), publisher.connect()]);
      logger.info({ event: 'pending.loaded', topic, pending: tasks.list().length }, 'pending tasks loaded');
    });
    app.addHook('onClose', async () => {
      await Promise.all([reader.stop(), publisher.close()]);
    });
    registerPendingRoutes(app, {
      tasks,
      async answer(entry, answer) {
        const message = answerHandoff(entry, answer);
        await publisher.publish(handoffRecord(codec, topics.inbound, message), { topic, key: entry.task.task_id });
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
