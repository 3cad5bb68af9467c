import { BatonError } from '@baton/errors';
import type { ConsumerObserver, OutputRecord } from '@baton/kafka';
import {
  Counter,
  METRIC_NAMES,
  eventLabels,
  outcomeRecord,
  type HandoffServiceDefinition,
  type Registry,
} from '@baton/runtime';
import { routeHandoff, type RoutingTable } from './routing/index.js';

export const ROUTER_ID = 'router';

/** Headers the router adds to a handoff it dispatches, so the decision is visible without decoding. */
export const ROUTE_HEADERS = { rule: 'baton.route.rule', target: 'baton.route.target' } as const;

/**
 * Counts `baton_handoffs_routed_total{handoff_type,issue_category,rule,target}` from the records
 * committed with each handoff (one per target), so a dispatch whose transaction failed and was
 * retried counts once.
 */
export function routedMetrics(registry: Registry): ConsumerObserver {
  const routed = new Counter({
    name: METRIC_NAMES.handoffsRouted,
    help: 'Handoffs the router dispatched, one per target, by handoff_type, issue_category, rule and target',
    labelNames: ['handoff_type', 'issue_category', 'rule', 'target'],
    registers: [registry],
  });
  return {
    processed({ record, labels, outputs }) {
      const handoff = eventLabels(labels, record.headers.ce_type);
      for (const output of outputs) {
        const rule = output.headers?.[ROUTE_HEADERS.rule];
        const target = output.headers?.[ROUTE_HEADERS.target];
        if (rule !== undefined && target !== undefined) routed.inc({ ...handoff, rule, target });
      }
    },
  };
}

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
    observer: ({ metrics }) => routedMetrics(metrics),
  };
}
