import { BatonError } from '@baton/errors';
import { compileValidators } from '@baton/protocol';
import { ContextStore, ExactlyOnceConsumer, createTopics, type ConsumedRecord, type PartitionLag } from '@baton/kafka';
import {
  controlProcessor,
  controlTopicCreator,
  resolveClaimCheck,
  type ControlMessage,
  type NegotiationConfig,
} from '@baton/negotiation';
import { component, handoffRecord, type Component, type Handoff, type HandoffServiceContext } from '@baton/runtime';
import type { AgentActionsContext } from './agent-actions.js';
import { agentCardInfo } from './agent-card.js';
import type { AgentDefinition } from './agent-definition.js';
import { controlGroupId } from './agent-groups.js';
import type { RegistryCards } from './registry-cards.js';

/**
 * Handoffs waiting in an inbox, at least: the larger of two counts that never exceed it.
 * - What this instance holds uncommitted (`uncommitted`): exact for its partitions while their
 *   backlog is under what it fetches ahead.
 * - Its group's lag in offsets, halved: every handoff an inbox's writers (the router, a receiver
 *   taking a context over, a replay) commit comes with a commit marker per partition and
 *   transaction, one marker to a handoff at light load and one to many when transactions batch;
 *   and the marker of the last one processed leaves one offset behind the committed position. So
 *   a partition lagging n offsets holds at least floor(n / 2) handoffs, and an idle one (n = 1)
 *   none. Counting offsets instead would call an idle partition busy.
 */
export function queuedHandoffs(lag: readonly PartitionLag[], uncommitted = 0): number {
  return Math.max(
    uncommitted,
    lag.reduce((sum, partition) => sum + Math.floor(partition.lag / 2), 0),
  );
}

/**
 * An agent process's part in negotiated handoffs, wiring @baton/negotiation's parts into the
 * service chassis. As a sender, its handlers' requests
 * store large contexts in the contexts topic and write to receivers' control topics. As a receiver,
 * it consumes its own control topic, with an exactly-once consumer of its own beside the inbox's:
 * it answers HandoffRequests from its card, its inbox's lag and the registry's live agents, and
 * takes transferred contexts over into its inbox.
 */
export class AgentNegotiation {
  private store: ContextStore | undefined;
  private controlTopics: ((agentId: string) => Promise<void>) | undefined;

  constructor(
    private readonly agent: AgentDefinition,
    private readonly config: Readonly<NegotiationConfig>,
    private readonly registry: RegistryCards,
    private readonly now: () => Date,
  ) {}

  /** What the agent's actions need for requestHandoff, besides the service's codecs and topics. */
  senderContext(
    context: HandoffServiceContext,
  ): Pick<AgentActionsContext, 'contexts' | 'contextStage' | 'inlineMaxBytes' | 'ensureControlTopic'> {
    return {
      contexts: this.storeOf(context),
      contextStage: context.contextStage,
      inlineMaxBytes: this.config.inlineMaxBytes,
      ensureControlTopic: (agentId) => this.ensureControlTopic(context, agentId),
    };
  }

  /** Reads an inbox record that names a stored context rather than holding the handoff: a claim check. */
  resolveInbox(context: HandoffServiceContext): (record: ConsumedRecord) => Promise<Handoff> | undefined {
    return (record) => resolveClaimCheck(record, this.storeOf(context), context.contextStage);
  }

  /**
   * What the negotiation holds besides its consumer, in start order: the contexts topic and the
   * agent's control topic, and the context store (closed last, after both consumers have drained:
   * their work in progress uses it).
   */
  components(context: HandoffServiceContext): Component[] {
    const { config, topics } = context;
    return [
      component('context-store', { close: async () => this.store?.close() }),
      component('negotiation-topics', {
        start: async () => {
          // Now rather than on the first request or transfer, which would wait for it.
          compileValidators(['lifecycle', 'staged-context']);
          await createTopics(context.kafka, [
            { topic: topics.contexts, numPartitions: config.partitions, replicationFactor: config.replicationFactor },
          ]);
          await this.ensureControlTopic(context, this.agent.id);
        },
      }),
    ];
  }

  /** The exactly-once consumer of the agent's control topic: HandoffRequests and transferred contexts. */
  controlConsumer(context: HandoffServiceContext): Component {
    const { config, topics, kafka, logger } = context;
    const agentId = this.agent.id;
    const control = topics.agentControl(agentId);
    const consumer = new ExactlyOnceConsumer<ControlMessage>({
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
        // The agent took the task over: the handoff goes into its inbox signed with its own key,
        // so a signature the sender may have given the offered handoff is dropped.
        inboxRecord: (handoff, parentTraceparent) =>
          handoffRecord(context.codec, topics.agentInbox(agentId), withoutSignature(handoff), { parentTraceparent }),
        lifecycleCodec: context.lifecycleCodec,
        topics,
        queued: async () => queuedHandoffs(await readLag(context), context.sourceUncommitted()),
        liveAgents: () => this.registry.liveCards(),
        contexts: this.storeOf(context),
        contextStage: context.contextStage,
        now: this.now,
      }),
      observer: context.consumerObserver,
    });
    return component('control-consumer', {
      start: async () => {
        await consumer.start();
        logger.info(
          { event: 'negotiation.started', source: control, group: controlGroupId(topics, agentId) },
          'control topic consumed',
        );
      },
      close: () => consumer.close(),
      isReady: () => consumer.isRunning,
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
      kafka: context.kafka,
      topics,
      numPartitions: config.partitions,
      replicationFactor: config.replicationFactor,
    });
    return this.controlTopics(agentId);
  }
}

async function readLag(context: HandoffServiceContext): Promise<PartitionLag[]> {
  try {
    return await context.sourceLag();
  } catch (cause) {
    throw new BatonError('KAFKA_UNAVAILABLE', 'the lag of the agent’s inbox could not be read', { cause });
  }
}

function withoutSignature(handoff: Handoff): Handoff {
  if (handoff.metadata.signature === undefined) return handoff;
  const metadata = { ...handoff.metadata };
  delete metadata.signature;
  return { ...handoff, metadata };
}
