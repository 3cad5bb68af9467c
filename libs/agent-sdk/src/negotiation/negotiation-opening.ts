import type { OutputRecord, TopicNames } from '@baton/kafka';
import {
  buildLifecycleMessage,
  isoTimestamp,
  parseStagedContext,
  type BuildOptions,
  type HandoffRequest,
  type HandoffTerms,
  type Immutable,
  type StagedContext,
  type TaskContextTransferPayload,
} from '@baton/protocol';
import { lifecycleRecord, stagedContextRecord, type Handoff } from '@baton/runtime';
import type { LifecycleCodec, StagedContextCodec } from '@baton/wire';

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
  // Checked here, as the request is by its builder: an invalid one fails the handler, not the tracker.
  const staged = parseStagedContext({
    request_message_id: request.message_id,
    task_id,
    sender_id,
    staged_at: isoTimestamp((options.now ?? (() => new Date()))()),
    context,
    terms: handoffTerms(handoff, terms),
  } satisfies StagedContext);
  return { request, staged };
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
