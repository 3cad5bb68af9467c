import { BatonError, isBatonError } from '@baton/errors';
import { headerOf, type ConsumedRecord, type MessageProcessor, type OutputRecord, type TopicNames } from '@baton/kafka';
import {
  buildLifecycleMessage,
  type HandoffMessage,
  type HandoffRequest,
  type Immutable,
  type LifecycleMessage,
  type TaskContextTransfer,
} from '@baton/protocol';
import type { LifecycleCodec, WireStage } from '@baton/wire';
import { CONTEXT_CONTENT_TYPE, storedContextBytes, type ContextSink } from './context-offer.js';
import { handoffOfContext, type ContextSource } from './context-takeover.js';
import { decideOnRequest, refusalOf, type CapabilityCard } from './decide-on-request.js';
import { INBOX_RECORD_MAX_BYTES, claimCheckRecord } from './inbox-claim-check.js';
import { lifecycleRecord } from './lifecycle-record.js';
import type { NegotiationConfig } from './negotiation-config.js';

type Handoff = Immutable<HandoffMessage>;

export type ControlMessage = Immutable<LifecycleMessage>;

export interface ControlProcessorOptions {
  agentId: string;
  /** The agent's own card, matched against a request's desired_agent_type. */
  card: CapabilityCard;
  config: Pick<NegotiationConfig, 'capacity' | 'estimatedHandoffSeconds'>;
  /**
   * A handoff as a record of the agent's inbox, as the agent's own outputs write one, continuing
   * the trace of the transfer's record (the runtime's handoffRecord, to the inbox topic).
   */
  inboxRecord(handoff: Handoff, parentTraceparent: string | undefined): OutputRecord;
  lifecycleCodec: LifecycleCodec;
  topics: TopicNames;
  /** Handoffs waiting in the agent's inbox; read only when its capacity is limited. */
  queued(): Promise<number>;
  /** The cards of the live agents in the registry now; asked only for a rejection, which names them. */
  liveAgents(): Promise<readonly CapabilityCard[]>;
  /** Where contexts sent by reference are fetched, and a context too large for the inbox is stored. */
  contexts: ContextSource & ContextSink;
  /**
   * What a stored context goes through: opened once fetched, sealed before a context that came by
   * value is stored (with the key ring, its personal fields decrypted and encrypted; see
   * storedContextBytes). None reads and stores contexts as they are.
   */
  contextStage?: WireStage;
  now?: () => Date;
}

/**
 * The receiver's side of negotiated handoffs, for the agent's control topic. A HandoffRequest to
 * the agent is answered (accept or reject, see decideOnRequest) on the events topic, where the
 * tracker reads it. A TaskContextTransfer to it is taken over: the handoff its context carries goes
 * to the agent's own inbox, in the same transaction as HandoffComplete SUCCESS, so the agent's
 * handlers process it exactly once like any other (a handoff too large for a record goes as a
 * claim check naming its stored context, see inboxRecord); a context that cannot be used is answered
 * HandoffComplete FAILURE with an ErrorNotification saying why. Anything else is ignored.
 */
export function controlProcessor(options: ControlProcessorOptions): MessageProcessor<ControlMessage> {
  const { agentId, topics, lifecycleCodec } = options;
  const now = options.now ?? (() => new Date());
  const event = (message: Immutable<LifecycleMessage>) => lifecycleRecord(lifecycleCodec, topics.events, message);

  /** The envelope of a reply to `message`, from this agent to its sender, about the same task. */
  function replyTo(message: ControlMessage, correlationId: string | undefined) {
    return {
      sender_id: agentId,
      receiver_id: message.sender_id,
      ...(message.task_id === undefined ? {} : { task_id: message.task_id }),
      ...(correlationId === undefined ? {} : { correlation_id: correlationId }),
    };
  }

  async function answer(request: Immutable<HandoffRequest>): Promise<OutputRecord[]> {
    const { capacity, estimatedHandoffSeconds } = options.config;
    const queued = Number.isFinite(capacity) ? await options.queued() : 0;
    const circumstances = { card: options.card, queued, capacity };
    const liveAgents = refusalOf(request, circumstances) === undefined ? [] : await options.liveAgents();
    const decision = decideOnRequest(request, { ...circumstances, liveAgents });
    const envelope = replyTo(request, request.message_id);
    const reply =
      decision.decision === 'accept'
        ? buildLifecycleMessage(
            'HandoffAccept',
            { ...envelope, payload: { estimated_handoff_time: estimatedHandoffSeconds } },
            { now },
          )
        : buildLifecycleMessage(
            'HandoffReject',
            {
              ...envelope,
              payload: {
                reason: decision.reason,
                alternative_agent_suggestions: decision.alternative_agent_suggestions,
              },
            },
            { now },
          );
    return [event(reply)];
  }

  /** HandoffComplete FAILURE and the ErrorNotification that says why, both to the transfer's sender. */
  function failure(transfer: Immutable<TaskContextTransfer>, error: BatonError): OutputRecord[] {
    const envelope = replyTo(transfer, transfer.correlation_id);
    return [
      event(buildLifecycleMessage('HandoffComplete', { ...envelope, payload: { handoff_status: 'FAILURE' } }, { now })),
      event(
        buildLifecycleMessage(
          'ErrorNotification',
          {
            ...envelope,
            payload: {
              error_code: error.code,
              error_message: error.message,
              severity: 'WARNING',
              origin_agent_id: agentId,
            },
          },
          { now },
        ),
      ),
    ];
  }

  async function takeOver(transfer: Immutable<TaskContextTransfer>, record: ConsumedRecord): Promise<OutputRecord[]> {
    let handoff: Handoff;
    try {
      handoff = await handoffOfContext(transfer.payload, transfer.task_id, options.contexts, options.contextStage);
    } catch (error) {
      // Retriable failures (the store out of reach) are tried again by the consumer.
      if (!isBatonError(error) || error.retriable) throw error;
      return failure(transfer, error);
    }
    const complete = buildLifecycleMessage(
      'HandoffComplete',
      { ...replyTo(transfer, transfer.correlation_id), payload: { handoff_status: 'SUCCESS' } },
      { now },
    );
    return [event(complete), await inboxRecord(transfer, handoff, headerOf(record, 'traceparent'))];
  }

  /**
   * The handoff as a record of the agent's inbox. One too large for a record (the broker would
   * refuse the transaction, again and again) goes as a claim check naming its stored context: the
   * transfer's own reference, or the context stored now when it came by value.
   */
  async function inboxRecord(
    transfer: Immutable<TaskContextTransfer>,
    handoff: Handoff,
    parentTraceparent: string | undefined,
  ): Promise<OutputRecord> {
    const record = options.inboxRecord(handoff, parentTraceparent);
    if (record.value.length <= INBOX_RECORD_MAX_BYTES) return record;
    const { context_ref: ref, context_data: data } = transfer.payload;
    const stored =
      ref ??
      (await options.contexts.put(storedContextBytes(data, options.contextStage), {
        key: handoff.metadata.task_id,
        contentType: CONTEXT_CONTENT_TYPE,
      }));
    return claimCheckRecord(record, { ...stored });
  }

  return {
    async decode(record) {
      if (record.value === null) throw new BatonError('WIRE_FORMAT_INVALID', 'record has no value');
      const message = await lifecycleCodec.decode(record.value);
      // The message type, one of eight, labels the consumer's metrics as a handoff_type does.
      return { value: message, messageId: message.message_id, labels: { handoff_type: message.message_type } };
    },
    async process({ value: message }, { record }) {
      if (message.receiver_id !== agentId) return [];
      if (message.message_type === 'HandoffRequest') return answer(message);
      if (message.message_type === 'TaskContextTransfer') return takeOver(message, record);
      return [];
    },
    deadLetterOutputs({ message, error }) {
      // A context the agent could not take over in all its attempts: the sender's side need not
      // wait for its timeout to try elsewhere.
      const transfer = message?.value;
      if (transfer?.message_type !== 'TaskContextTransfer' || transfer.receiver_id !== agentId) return [];
      return failure(transfer, error);
    },
  };
}
