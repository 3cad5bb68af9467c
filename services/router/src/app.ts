import { BatonError } from '@baton/errors';
import type { OutputRecord } from '@baton/kafka';
import { outcomeRecord, type HandoffServiceDefinition } from '@baton/runtime';
import { routeHandoff, type RoutingTable } from './routing/index.js';

export const ROUTER_ID = 'router';

/** Headers the router adds to a handoff it dispatches, so the decision is visible without decoding. */
export const ROUTE_HEADERS = { rule: 'baton.route.rule', target: 'baton.route.target' } as const;

/**
 * The router: consumes the inbound topic and dispatches each handoff to the inbox of the agent
 * its routing table names. The record goes on byte for byte, with its headers and the routing
 * decision added; a handoff with no route goes to the dead-letter topic with NO_ROUTE.
 */
export function routerService(table: RoutingTable): HandoffServiceDefinition {
  return {
    name: ROUTER_ID,
    groupId: (topics) => `${topics.prefix}.router`,
    sourceTopic: (topics) => topics.inbound,
    outputTopics: (topics) => [...[...table.agents].map((agent) => topics.agentInbox(agent)), topics.events],
    createProcessor: ({ topics, outcomeCodec }) => ({
      async handle(message, { record }) {
        const decision = routeHandoff(table, message);
        if (decision.kind === 'no-route') {
          throw new BatonError('NO_ROUTE', decision.reason, { details: { stage: 'route' } });
        }
        const dispatched: OutputRecord[] = decision.targets.map((target) => ({
          topic: topics.agentInbox(target),
          key: message.metadata.task_id,
          value: record.value as Buffer,
          headers: { ...record.headers, [ROUTE_HEADERS.rule]: decision.ruleId, [ROUTE_HEADERS.target]: target },
        }));
        const event = outcomeRecord(outcomeCodec, topics.events, message, {
          agentId: ROUTER_ID,
          outcome: 'ROUTED',
          target: decision.targets.join(','),
          detail: `rule ${decision.ruleId}`,
        });
        return [...dispatched, event];
      },
      deadLetterOutputs: ({ message, error }) =>
        message === undefined
          ? []
          : [
              outcomeRecord(outcomeCodec, topics.events, message.value, {
                agentId: ROUTER_ID,
                outcome: 'DEAD_LETTERED',
                errorCode: error.code,
                detail: error.message,
              }),
            ],
    }),
  };
}
