import { childTraceparent, cloudEventHeaders, type OutputRecord, type RecordHeaders } from '@baton/kafka';
import type { HandoffMessage, Immutable } from '@baton/protocol';
import type { HandoffCodec } from '@baton/wire';

/** The CloudEvents headers of a handoff, continuing the trace of the record that caused it. */
export function handoffHeaders(message: Immutable<HandoffMessage>, parentTraceparent?: string): RecordHeaders {
  return cloudEventHeaders({
    id: message.metadata.message_id,
    type: message.payload.handoff_type,
    source: message.metadata.sender_id,
    subject: message.metadata.task_id,
    time: message.metadata.timestamp,
    correlationId: message.metadata.correlation_id,
    traceparent: childTraceparent(parentTraceparent),
  });
}

/**
 * A handoff as a Kafka record: keyed by task_id so a task's messages share a partition, in order,
 * with the seal its codec vouches for it with (a signing codec whose trust store names readers).
 */
export function handoffRecord(
  codec: HandoffCodec,
  topic: string,
  message: Immutable<HandoffMessage>,
  options: { parentTraceparent?: string; extraHeaders?: RecordHeaders } = {},
): OutputRecord {
  const { value, headers } = codec.encodeRecord(message);
  return {
    topic,
    key: message.metadata.task_id,
    value,
    headers: { ...handoffHeaders(message, options.parentTraceparent), ...options.extraHeaders, ...headers },
  };
}
