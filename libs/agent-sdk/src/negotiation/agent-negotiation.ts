import type { FastifyInstance } from 'fastify';
import { AgentRegistryReader, AgentRegistryView, type RegistryConfig } from '@baton/agent-registry';
import { BatonError } from '@baton/errors';
import { compileValidators } from '@baton/protocol';
import {
  ConsumerLagReader,
  ContextStore,
  ExactlyOnceConsumer,
  createTopics,
  type ConsumedRecord,
  type PartitionLag,
} from '@baton/kafka';
import { controlTopicCreator, type Handoff, type HandoffServiceContext, type Logger } from '@baton/runtime';
import type { AgentActionsContext } from '../agent-actions.js';
import { agentCardInfo } from '../agent-card.js';
import type { AgentDefinition } from '../agent-definition.js';
import { agentGroupId, controlGroupId } from '../agent-groups.js';
import { controlProcessor, type ControlMessage } from './control-processor.js';
import { liveAgentCards } from './decide-on-request.js';
import { resolveClaimCheck } from './inbox-claim-check.js';
import type { NegotiationConfig } from './negotiation-config.js';

/**
 * Handoffs waiting in an inbox, from its group's lag in offsets. Every writer of an inbox (the
 * router, a receiver taking a context over, a replay) writes one record per partition per
 * transaction, so each waiting handoff takes two offsets, itself and its commit marker, and the
 * marker of the last one processed leaves one offset behind the committed position: a partition
 * lagging n offsets holds floor(n / 2) handoffs. Counting offsets instead would call an idle
 * partition busy.
 */
export function queuedHandoffs(lag: readonly PartitionLag[]): number {
  return lag.reduce((sum, partition) => sum + Math.floor(partition.lag / 2), 0);
}

/**
 * An agent process's part in negotiated handoffs (seed 001). As a sender, its handlers' requests
 * store large contexts in the contexts topic and write to receivers' control topics. As a receiver,
 * it consumes its own control topic, with an exactly-once consumer of its own beside the inbox's:
 * it answers HandoffRequests from its card, its inbox's lag and the registry's live agents, and
 * takes transferred contexts over into its inbox.
 */
export class AgentNegotiation {
  private store: ContextStore | undefined;
  private controlTopics: ((agentId: string) => Promise<void>) | undefined;
  private readonly view: AgentRegistryView;

  constructor(
    private readonly agent: AgentDefinition,
    private readonly config: Readonly<NegotiationConfig>,
    registry: Readonly<Pick<RegistryConfig, 'livenessWindowMs'>>,
    private readonly now: () => Date,
  ) {
    this.view = new AgentRegistryView({ livenessWindowMs: registry.livenessWindowMs });
  }

  /** What the agent's actions need for requestHandoff, besides the service's codecs and topics. */
  senderContext(
    context: HandoffServiceContext,
  ): Pick<AgentActionsContext, 'contexts' | 'inlineMaxBytes' | 'ensureControlTopic'> {
    return {
      contexts: this.storeOf(context),
      inlineMaxBytes: this.config.inlineMaxBytes,
      ensureControlTopic: (agentId) => this.ensureControlTopic(context, agentId),
    };
  }

  /** Reads an inbox record that names a stored context rather than holding the handoff: see inboxRecord. */
  resolveInbox(context: HandoffServiceContext): (record: ConsumedRecord) => Promise<Handoff | undefined> {
    return (record) => resolveClaimCheck(record, this.storeOf(context));
  }

  /**
   * Starts the control consumer when the app is ready, after the agent has registered (hooks run
   * in the order they were added: registerInRegistry creates the registry topic first), and stops
   * it when the app closes, which the chassis does once the inbox's consumer has drained.
   */
  register(app: FastifyInstance, context: HandoffServiceContext): void {
    const { config, topics, kafka, logger } = context;
    const agentId = this.agent.id;
    const control = topics.agentControl(agentId);
    const reader = new AgentRegistryReader({
      kafka,
      topic: topics.agents,
      groupId: `${agentGroupId(topics, agentId)}.registry.${config.instanceId}`,
      view: this.view,
      logger,
      // Read only for a rejection's suggestions: following every instance's heartbeats (each
      // instance's every 5 s) woke every agent several times a second.
      live: false,
    });
    const lag = new ConsumerLagReader(kafka, agentGroupId(topics, agentId), topics.agentInbox(agentId));
    let consumer: ExactlyOnceConsumer<ControlMessage> | undefined;
    app.addHook('onReady', async () => {
      // Now rather than on the first request or transfer, which would wait for it.
      compileValidators(['lifecycle', 'staged-context']);
      await createTopics(config.kafkaBrokers, [
        { topic: topics.contexts, numPartitions: config.partitions, replicationFactor: config.replicationFactor },
      ]);
      await this.ensureControlTopic(context, agentId);
      await reader.start();
      consumer = new ExactlyOnceConsumer<ControlMessage>({
        kafka,
        groupId: controlGroupId(topics, agentId),
        topic: control,
        instanceId: config.instanceId,
        defaultRetryLimit: config.defaultRetryLimit,
        tuning: config.consumerTuning,
        processor: controlProcessor({
          agentId,
          card: agentCardInfo(this.agent),
          config: this.config,
          codec: context.codec,
          lifecycleCodec: context.lifecycleCodec,
          topics,
          queued: async () => queuedHandoffs(await readLag(lag)),
          liveAgents: async () => {
            await refreshRegistry(reader);
            return liveAgentCards(this.view, this.now());
          },
          contexts: this.storeOf(context),
          now: this.now,
        }),
        observer: context.consumerObserver,
      });
      await consumer.start();
      logger.info(
        { event: 'negotiation.started', source: control, group: controlGroupId(topics, agentId) },
        'control topic consumed',
      );
    });
    app.addHook('onClose', async () => {
      // The consumer first: its work in progress uses the others until it has committed.
      await closeAll([consumer?.close()], logger);
      await closeAll([reader.stop(), lag.close(), this.store?.close()], logger);
    });
  }

  /** One store per process, for both sides: contexts put by its requests, fetched for its transfers. */
  private storeOf(context: HandoffServiceContext): ContextStore {
    this.store ??= new ContextStore({ kafka: context.kafka, topic: context.topics.contexts });
    return this.store;
  }

  /** Creates `agentId`'s control topic unless this process has: its own, or a receiver's it asks. */
  private ensureControlTopic(context: HandoffServiceContext, agentId: string): Promise<void> {
    const { config, topics } = context;
    this.controlTopics ??= controlTopicCreator({
      brokers: config.kafkaBrokers,
      topics,
      numPartitions: config.partitions,
      replicationFactor: config.replicationFactor,
    });
    return this.controlTopics(agentId);
  }
}

/**
 * Waits for every close; a failure is logged, not thrown, so the drain goes on and the agent still
 * exits cleanly: what they hold is given back with the process either way.
 */
async function closeAll(closing: (Promise<unknown> | undefined)[], logger: Logger): Promise<void> {
  for (const result of await Promise.allSettled(closing)) {
    if (result.status === 'rejected') {
      logger.warn({ event: 'negotiation.close_failed', err: result.reason }, 'negotiation resource not closed cleanly');
    }
  }
}

async function refreshRegistry(reader: AgentRegistryReader): Promise<void> {
  try {
    await reader.refresh();
  } catch (cause) {
    throw new BatonError('KAFKA_UNAVAILABLE', 'the agent registry could not be read', { cause });
  }
}

async function readLag(reader: ConsumerLagReader): Promise<PartitionLag[]> {
  try {
    return await reader.read();
  } catch (cause) {
    throw new BatonError('KAFKA_UNAVAILABLE', 'the lag of the agent’s inbox could not be read', { cause });
  }
}
