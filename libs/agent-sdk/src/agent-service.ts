import { BatonError } from '@baton/errors';
import type { TopicNames } from '@baton/kafka';
import { messageLogger, outcomeRecord, type HandoffServiceDefinition } from '@baton/runtime';
import { AgentActions } from './agent-actions.js';
import type { AgentDefinition } from './agent-definition.js';

/** The consumer group of an agent: all instances of one agent share its inbox's partitions. */
export function agentGroupId(topics: TopicNames, agentId: string): string {
  return `${topics.prefix}.agent.${agentId}`;
}

/** An agent as a handoff service: consumes its inbox, runs the handler of each handoff_type. */
export function agentService(agent: AgentDefinition, now: () => Date = () => new Date()): HandoffServiceDefinition {
  return {
    name: `agent.${agent.id}`,
    groupId: (topics) => agentGroupId(topics, agent.id),
    sourceTopic: (topics) => topics.agentInbox(agent.id),
    outputTopics: (topics) => [topics.inbound, topics.events, topics.ledger, topics.userReplies],
    createProcessor: (context) => ({
      async handle(handoff, { record, attempt }) {
        const handler = agent.handlers[handoff.payload.handoff_type];
        if (handler === undefined) {
          throw new BatonError('NO_HANDLER', `${agent.id} has no handler for ${handoff.payload.handoff_type}`, {
            details: { stage: 'handle' },
          });
        }
        const act = new AgentActions(agent.id, handoff, context, record.headers.traceparent, now);
        await handler(handoff, act, { logger: messageLogger(context.logger, handoff), attempt });
        return act.outputs();
      },
      deadLetterOutputs: ({ message, error }) =>
        message === undefined
          ? []
          : [
              outcomeRecord(context.outcomeCodec, context.topics.events, message.value, {
                agentId: agent.id,
                outcome: 'DEAD_LETTERED',
                errorCode: error.code,
                detail: error.message,
              }),
            ],
    }),
    registerRoutes: agent.routes,
  };
}
