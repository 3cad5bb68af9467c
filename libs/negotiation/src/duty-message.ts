import type { OutputRecord, TopicNames } from '@baton/kafka';
import {
  buildLifecycleMessage,
  nameBasedUuid,
  type ErrorNotificationPayload,
  type Immutable,
  type LifecycleMessage,
} from '@baton/protocol';
import type { LifecycleCodec } from '@baton/wire';
import { lifecycleRecord } from './lifecycle-record.js';
import type { Duty } from './negotiation-duty.js';
import { NEGOTIATION_ERRORS, type NegotiationFold } from './negotiation-fold.js';

/** The sender_id and origin_agent_id of what the tracker itself reports. */
export const TRACKER_AGENT_ID = 'baton_tracker';

/**
 * The message that carries out `duty` for the negotiation `fold` holds, under an id derived from
 * what caused it: trackers that decide the same thing write one message (the copies collapse on
 * message_id), and a restarted tracker that folds its own decision back never takes it twice.
 * Undefined when the fold no longer holds what the message needs (the staged context, the first
 * request).
 */
export function dutyMessage(
  taskId: string,
  fold: NegotiationFold,
  duty: Duty,
): Immutable<LifecycleMessage> | undefined {
  const negotiation = fold.negotiation;
  const id = (cause: string) => () => nameBasedUuid(cause);
  switch (duty.kind) {
    case 'send-context': {
      const context = fold.stagedContext;
      if (context === undefined) return undefined;
      return buildLifecycleMessage(
        'TaskContextTransfer',
        {
          sender_id: negotiation.sender_id,
          receiver_id: duty.attempt.receiver,
          task_id: taskId,
          correlation_id: duty.attempt.request_id,
          payload: structuredClone(context) as LifecycleMessage<'TaskContextTransfer'>['payload'],
        },
        { newId: id(`${duty.attempt.request_id}/context`) },
      );
    }
    case 'request': {
      const first = fold.firstRequest;
      if (first === undefined) return undefined;
      return buildLifecycleMessage(
        'HandoffRequest',
        {
          sender_id: negotiation.sender_id,
          receiver_id: duty.receiver,
          task_id: taskId,
          correlation_id: negotiation.negotiation_id,
          payload: {
            reason: first.reason,
            desired_agent_type: first.desired_agent_type,
            priority: first.priority,
            initial_context_summary: first.initial_context_summary,
          },
        },
        { newId: id(`${negotiation.negotiation_id}/request/${negotiation.attempts.length}`) },
      );
    }
    case 'time-out':
      return notification(taskId, negotiation.sender_id, duty.attempt.request_id, {
        error_code: NEGOTIATION_ERRORS.timeout,
        error_message: duty.reason,
        severity: 'WARNING',
        origin_agent_id: TRACKER_AGENT_ID,
      });
    case 'fail':
      return notification(taskId, negotiation.sender_id, negotiation.negotiation_id, {
        error_code: NEGOTIATION_ERRORS.failed,
        error_message: duty.reason,
        severity: 'CRITICAL',
        origin_agent_id: TRACKER_AGENT_ID,
      });
    case 'expire':
      return notification(taskId, negotiation.sender_id, negotiation.negotiation_id, {
        error_code: NEGOTIATION_ERRORS.expired,
        error_message: duty.reason,
        severity: 'CRITICAL',
        origin_agent_id: TRACKER_AGENT_ID,
      });
  }
}

/** An ErrorNotification to the sender about one attempt or the whole negotiation (`correlationId`). */
function notification(
  taskId: string,
  senderId: string,
  correlationId: string,
  payload: ErrorNotificationPayload,
): Immutable<LifecycleMessage> {
  return buildLifecycleMessage(
    'ErrorNotification',
    { sender_id: TRACKER_AGENT_ID, receiver_id: senderId, task_id: taskId, correlation_id: correlationId, payload },
    { newId: () => nameBasedUuid(`${correlationId}/${payload.error_code}`) },
  );
}

/**
 * Whether the receiver must act on the message of `duty` (a context to take over, a request to
 * answer), so that it is also delivered to the receiver's control topic, which must then exist.
 */
export function deliversToReceiver(duty: Duty): boolean {
  return duty.kind === 'send-context' || duty.kind === 'request';
}

/**
 * The records that carry out `duty` with `message`, in one transaction: the message on the events
 * topic, and, when the receiver must act on it, on the receiver's control topic.
 */
export function dutyRecords(
  codec: LifecycleCodec,
  topics: TopicNames,
  duty: Duty,
  message: Immutable<LifecycleMessage>,
): OutputRecord[] {
  const records = [lifecycleRecord(codec, topics.events, message)];
  if (deliversToReceiver(duty)) records.push(lifecycleRecord(codec, topics.agentControl(message.receiver_id), message));
  return records;
}
