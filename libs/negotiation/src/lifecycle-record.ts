import type { OutputRecord } from '@baton/kafka';
import type { Immutable, LifecycleMessage, StagedContext } from '@baton/protocol';
import type { LifecycleCodec, StagedContextCodec } from '@baton/wire';

/** Lifecycle messages' CloudEvents type: `baton.lifecycle.HandoffRequest` and so on. */
export const LIFECYCLE_EVENT_TYPE_PREFIX = 'baton.lifecycle.';

/**
 * A lifecycle message as a record of `topic`, keyed by its task_id so every message of a task
 * stays in one partition, in order: the events topic (the log the tracker reads) or an agent's
 * control topic (delivery).
 */
export function lifecycleRecord(
  codec: LifecycleCodec,
  topic: string,
  message: Immutable<LifecycleMessage>,
): OutputRecord {
  return {
    topic,
    key: message.task_id ?? message.sender_id,
    value: codec.encode(message),
    headers: {
      ce_specversion: '1.0',
      ce_id: message.message_id,
      ce_type: `${LIFECYCLE_EVENT_TYPE_PREFIX}${message.message_type}`,
      ce_source: message.sender_id,
      ...(message.task_id === undefined ? {} : { ce_subject: message.task_id }),
      ce_time: message.timestamp,
      ...(message.correlation_id === undefined ? {} : { correlation_id: message.correlation_id }),
    },
  };
}

/** A staged context as a record of the events topic, keyed by its task_id. */
export function stagedContextRecord(
  codec: StagedContextCodec,
  topic: string,
  staged: Immutable<StagedContext>,
): OutputRecord {
  return {
    topic,
    key: staged.task_id,
    value: codec.encode(staged),
    headers: {
      ce_specversion: '1.0',
      ce_id: `${staged.request_message_id}.context`,
      ce_type: 'baton.lifecycle.StagedContext',
      ce_source: staged.sender_id,
      ce_subject: staged.task_id,
      ce_time: staged.staged_at,
      correlation_id: staged.request_message_id,
    },
  };
}
