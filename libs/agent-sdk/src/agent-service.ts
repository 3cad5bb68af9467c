import type { FastifyInstance } from 'fastify';
import {
  AgentHeartbeat,
  ensureAgentsTopic,
  kafkaRegistrySink,
  loadRegistryConfig,
  type RegistryConfig,
} from '@baton/agent-registry';
import { BatonError } from '@baton/errors';
import {
  messageLogger,
  outcomeRecord,
  type HandoffServiceContext,
  type HandoffServiceDefinition,
} from '@baton/runtime';
import { AgentActions } from './agent-actions.js';
import { agentCard } from './agent-card.js';
import type { AgentDefinition } from './agent-definition.js';
import { agentGroupId } from './agent-groups.js';
import { AgentNegotiation } from './negotiation/agent-negotiation.js';
import { loadNegotiationConfig } from './negotiation/negotiation-config.js';

/**
 * Registers the agent instance in `<prefix>.agents` once its HTTP app is ready (before its consumer
 * starts), heartbeats every `heartbeatIntervalMs`, and deregisters (a tombstone) when the app
 * closes, which the chassis does on a clean stop after the consumer has drained.
 */
function registerInRegistry(
  app: FastifyInstance,
  agent: AgentDefinition,
  context: HandoffServiceContext,
  registry: Readonly<RegistryConfig>,
  now: () => Date,
): void {
  const { config, topics, kafka, logger } = context;
  let heartbeat: AgentHeartbeat | undefined;
  app.addHook('onReady', async () => {
    await ensureAgentsTopic(config.kafkaBrokers, topics.agents, {
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
    });
    await heartbeat.start();
  });
  app.addHook('onClose', async () => {
    await heartbeat?.stop();
  });
}

/**
 * An agent as a handoff service: consumes its inbox, runs the handler of each handoff_type, keeps
 * its card in the agent registry while it runs (see registerInRegistry), and takes part in
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
  const negotiation = new AgentNegotiation(agent, loadNegotiationConfig(agent.negotiation), registry, now);
  return {
    name: `agent.${agent.id}`,
    groupId: (topics) => agentGroupId(topics, agent.id),
    sourceTopic: (topics) => topics.agentInbox(agent.id),
    outputTopics: (topics) => [topics.inbound, topics.events, topics.ledger, topics.userReplies],
    createProcessor: (context) => ({
      readsOwnOutputs: agent.readsOwnOutputs,
      resolve: negotiation.resolveInbox(context),
      async handle(handoff, { record, attempt }) {
        const handler = agent.handlers[handoff.payload.handoff_type];
        if (handler === undefined) {
          throw new BatonError('NO_HANDLER', `${agent.id} has no handler for ${handoff.payload.handoff_type}`, {
            details: { stage: 'handle' },
          });
        }
        const actions = { ...context, ...negotiation.senderContext(context) };
        const act = new AgentActions(agent.id, handoff, actions, record.headers.traceparent, now);
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
    registerRoutes(app, context) {
      agent.routes?.(app, context);
      registerInRegistry(app, agent, context, registry, now);
      // After registerInRegistry: its onReady creates the registry topic the negotiation reads.
      negotiation.register(app, context);
    },
  };
}
