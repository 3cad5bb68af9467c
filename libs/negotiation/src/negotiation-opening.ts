import { BatonError } from '@baton/errors';
import type { OutputRecord, TopicNames } from '@baton/kafka';
import {
  buildLifecycleMessage,
  parseStagedContext,
  type BuildOptions,
  type HandoffMessage,
  type HandoffRequest,
  type HandoffTerms,
  type Immutable,
  type StagedContext,
  type TaskContextTransferPayload,
} from '@baton/protocol';
import type { LifecycleCodec, StagedContextCodec, WireStage } from '@baton/wire';
import { contextTransferPayload, handoffContextData, type ContextSink } from './context-offer.js';
import { lifecycleRecord, stagedContextRecord } from './lifecycle-record.js';

type Handoff = Immutable<HandoffMessage>;

/** What the sender asks of a receiver, besides the handoff it offers. */
export interface RequestTerms {
  reason: string;
  desired_agent_type: string;
  /** The HandoffRequest's initial_context_summary. */
  summary: string;
}

/** The first HandoffRequest of a negotiation and the context it offers, staged for the tracker. */
export interface NegotiationOpening {
  request: Immutable<HandoffRequest>;
  staged: Immutable<StagedContext>;
}

/** What a process needs to open negotiations: somewhere to store large contexts, and receivers' control topics. */
export interface NegotiationOpener {
  /** Where a context too large to travel in the message is stored. */
  contexts: ContextSink;
  /**
   * What a context goes through before it is stored: with the key ring, @baton/field-encryption's
   * storedContextStage, so the contexts topic holds its personal fields encrypted. None stores it as it is.
   */
  contextStage?: WireStage;
  /** Contexts whose JSON is longer than this go by reference. */
  inlineMaxBytes: number;
  /** Creates an agent's control topic if it is missing, so a transaction can write to it. */
  ensureControlTopic(agentId: string): Promise<void>;
}

/**
 * The one agent a negotiated handoff is offered to: its recipient_id, a string or a list of one.
 * A HandoffRequest has a single receiver; VALIDATION_FAILED at /metadata/recipient_id otherwise.
 */
export function soleRecipient(handoff: Pick<Handoff, 'metadata'>): string {
  const recipients = [handoff.metadata.recipient_id].flat();
  const [recipient] = recipients;
  if (recipients.length !== 1 || recipient === undefined) {
    throw new BatonError(
      'VALIDATION_FAILED',
      `a negotiated handoff names exactly one recipient, not ${recipients.length}`,
      { path: '/metadata/recipient_id' },
    );
  }
  return recipient;
}

/**
 * The terms the tracker enforces for the sender, read from the handoff on offer: its
 * expiration_time, its constraints.time_limit (an ISO 8601 duration) and its
 * failure_handling_strategy.
 */
export function handoffTerms(
  handoff: Handoff,
  terms: Pick<RequestTerms, 'reason' | 'desired_agent_type'>,
): HandoffTerms {
  const timeLimit = handoff.instructions.constraints?.time_limit;
  const strategy = handoff.instructions.failure_handling_strategy;
  return {
    desired_agent_type: terms.desired_agent_type,
    reason: terms.reason,
    ...(handoff.metadata.expiration_time === undefined ? {} : { expiration_time: handoff.metadata.expiration_time }),
    ...(typeof timeLimit === 'string' && timeLimit !== '' ? { time_limit: timeLimit } : {}),
    ...(strategy === undefined ? {} : { failure_handling_strategy: { ...strategy } }),
  };
}

/**
 * Opens a negotiation for `handoff` (addressed to one receiver): the HandoffRequest from its sender
 * to its recipient, and the staged context naming that request, with the terms the handoff sets.
 */
export function negotiationOpening(
  handoff: Handoff,
  terms: RequestTerms,
  context: TaskContextTransferPayload,
  options: BuildOptions = {},
): NegotiationOpening {
  const { sender_id, recipient_id, task_id, priority } = handoff.metadata;
  const request = buildLifecycleMessage(
    'HandoffRequest',
    {
      sender_id,
      receiver_id: [recipient_id].flat().join(','),
      task_id,
      payload: {
        reason: terms.reason,
        desired_agent_type: terms.desired_agent_type,
        priority,
        initial_context_summary: terms.summary,
      },
    },
    options,
  );
  // Checked here, as the request is by its builder: an invalid one fails its caller, not the tracker.
  // Staged at the request's own time: the staged context is written before the request, and a
  // later clock reading put it after the request on a timeline read by time.
  const staged = parseStagedContext({
    request_message_id: request.message_id,
    task_id,
    sender_id,
    staged_at: request.timestamp,
    context,
    terms: handoffTerms(handoff, terms),
  } satisfies StagedContext);
  return { request, staged };
}

/**
 * Everything before the transaction that opens a negotiation for `handoff`: its context (the whole
 * handoff, described by `taskDescription`) stored first when it is over the inline limit, the
 * receiver's control topic made sure of, both at once; then the request and the staged context.
 * Write openingRecords of the result in one transaction.
 */
export async function openNegotiation(
  handoff: Handoff,
  terms: RequestTerms & { taskDescription?: string },
  opener: NegotiationOpener,
  options: BuildOptions = {},
): Promise<NegotiationOpening> {
  const { taskDescription, ...requestTerms } = terms;
  const receiver = soleRecipient(handoff);
  const [context] = await Promise.all([
    contextTransferPayload(handoffContextData(handoff, taskDescription), {
      taskId: handoff.metadata.task_id,
      inlineMaxBytes: opener.inlineMaxBytes,
      store: opener.contexts,
      stage: opener.contextStage,
    }),
    opener.ensureControlTopic(receiver),
  ]);
  return negotiationOpening(handoff, requestTerms, context, options);
}

/**
 * The records that open a negotiation, in the order the tracker must read them: the staged
 * context, then the request, on the events topic; then the request delivered to the receiver's
 * control topic. Written in one transaction, so the tracker never sees a request without its context.
 */
export function openingRecords(
  codecs: { lifecycleCodec: LifecycleCodec; stagedCodec: StagedContextCodec },
  topics: TopicNames,
  opening: NegotiationOpening,
): OutputRecord[] {
  const { request, staged } = opening;
  return [
    stagedContextRecord(codecs.stagedCodec, topics.events, staged),
    lifecycleRecord(codecs.lifecycleCodec, topics.events, request),
    lifecycleRecord(codecs.lifecycleCodec, topics.agentControl(request.receiver_id), request),
  ];
}
