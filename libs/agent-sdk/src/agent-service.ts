import {
  AgentHeartbeat,
  ensureAgentsTopic,
  FailureTally,
  kafkaRegistrySink,
  loadRegistryConfig,
  type RegistryConfig,
} from '@baton/agent-registry';
import { BatonError, isPromiseLike } from '@baton/errors';
import { headerOf } from '@baton/kafka';
import { loadNegotiationConfig } from '@baton/negotiation';
import {
  component,
  outcomeRecord,
  type Component,
  type HandoffServiceContext,
  type HandoffServiceDefinition,
} from '@baton/runtime';
import { AgentActions } from './agent-actions.js';
import { agentCard } from './agent-card.js';
import { handlerFor, type AgentDefinition } from './agent-definition.js';
import { agentGroupId } from './agent-groups.js';
import { AgentNegotiation } from './agent-negotiation.js';
import { RegistryCards } from './registry-cards.js';
import { MessageHandlerContext } from './message-handler-context.js';

/**
 * The agent instance's card in `<prefix>.agents`: published at start (before its consumer starts),
 * heartbeated every `heartbeatIntervalMs`, and deregistered (a tombstone) at close, which comes
 * after the consumer has drained.
 */
function registryHeartbeat(
  agent: AgentDefinition,
  context: HandoffServiceContext,
  registry: Readonly<RegistryConfig>,
  failures: FailureTally,
  now: () => Date,
): Component {
  const { config, topics, kafka, logger } = context;
  let heartbeat: AgentHeartbeat | undefined;
  return component('registry-heartbeat', {
    start: async () => {
      await ensureAgentsTopic(kafka, topics.agents, {
        numPartitions: config.partitions,
        replicationFactor: config.replicationFactor,
      });
      heartbeat = new AgentHeartbeat({
        topic: topics.agents,
        card: agentCard(agent, {
          instanceId: config.instanceId,
          startedAt: now(),
          heartbeatIntervalMs: registry.heartbeatIntervalMs,
        }),
        sink: kafkaRegistrySink(kafka),
        logger,
        now,
        failures: () => failures.recent(),
      });
      await heartbeat.start();
    },
    close: async () => heartbeat?.stop(),
  });
}

/**
 * An agent as a handoff service: consumes its inbox, runs the handler of each handoff_type, keeps
 * its card in the agent registry while it runs (see registryHeartbeat), and takes part in
 * negotiated handoffs through its control topic (see AgentNegotiation).
 */
export function agentService(
  agent: AgentDefinition,
  now: () => Date = () => new Date(),
  registry: Readonly<RegistryConfig> = loadRegistryConfig(),
): HandoffServiceDefinition {
  // Checked now, so a malformed card stops the agent before it starts.
  agentCard(agent, { instanceId: 'check', startedAt: now(), heartbeatIntervalMs: registry.heartbeatIntervalMs });
  // Checked now too: a bad BATON_AGENT_CAPACITY or BATON_CONTEXT_INLINE_MAX_BYTES stops the agent.
  const cards = new RegistryCards(agent.id, registry, now);
  const negotiation = new AgentNegotiation(agent, loadNegotiationConfig(agent.negotiation), cards, now);
  // What its handlers tell of failing models and tools, told on with each heartbeat.
  const failures = new FailureTally();
  return {
    name: `agent.${agent.id}`,
    groupId: (topics) => agentGroupId(topics, agent.id),
    sourceTopic: (topics) => topics.agentInbox(agent.id),
    outputTopics: (topics) => [topics.inbound, topics.events, topics.ledger, topics.userReplies],
    createProcessor: (context) => {
      // Once per service, not per handoff: every handoff's actions share them.
      const actions = { ...context, ...negotiation.senderContext(context) };
      return {
        agentId: agent.id,
        readsOwnOutputs: agent.readsOwnOutputs,
        resolve: negotiation.resolveInbox(context),
        handle(handoff, { record, attempt }) {
          const handler = handlerFor(agent.handlers, handoff);
          if (handler === undefined) {
            throw new BatonError('NO_HANDLER', `${agent.id} has no handler for ${handoff.payload.handoff_type}`, {
              details: { stage: 'handle' },
            });
          }
          const act = new AgentActions(agent.id, handoff, actions, headerOf(record, 'traceparent'), now);
          const handled = handler(
            handoff,
            act,
            new MessageHandlerContext(context.logger, handoff, attempt, cards, failures),
          );
          // A handler that returns at once (no model call, no lookup) is not awaited: see MaybePromise.
          return isPromiseLike(handled) ? Promise.resolve(handled).then(() => act.outputs()) : act.outputs();
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
      };
    },
    registerRoutes: agent.routes,
    // The heartbeat first: it creates the registry topic the cards are read from.
    components: (context) => [
      registryHeartbeat(agent, context, registry, failures, now),
      cards.component(context),
      ...negotiation.components(context),
      ...(agent.components?.(context) ?? []),
    ],
    consumers: (context) => [negotiation.controlConsumer(context)],
  };
}
