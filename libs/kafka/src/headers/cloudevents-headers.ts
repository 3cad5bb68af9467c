import type { RecordHeaders } from './record-headers.js';

/**
 * The CloudEvents Kafka protocol binding in binary mode: the event's attributes are `ce_` headers
 * and the record value is the event data, so any Kafka tool can read the routing facts of a handoff
 * without decoding its Avro body.
 */
export interface CloudEventAttributes {
  /** ce_id: the handoff's message_id. */
  id: string;
  /** ce_type: the handoff_type (or lifecycle message type). */
  type: string;
  /** ce_source: the sender_id. */
  source: string;
  /** ce_subject: the task_id. */
  subject: string;
  /** ce_time: RFC 3339. */
  time: string;
  correlationId?: string;
  traceparent: string;
}

export const CLOUDEVENTS_SPEC_VERSION = '1.0';
/** Confluent wire-format Avro: the content type the binding puts in the `content-type` header. */
export const AVRO_CONTENT_TYPE = 'application/vnd.confluent.avro';

export function cloudEventHeaders(event: CloudEventAttributes): RecordHeaders {
  return {
    ce_specversion: CLOUDEVENTS_SPEC_VERSION,
    ce_id: event.id,
    ce_type: event.type,
    ce_source: event.source,
    ce_subject: event.subject,
    ce_time: event.time,
    'content-type': AVRO_CONTENT_TYPE,
    ...(event.correlationId === undefined ? {} : { correlation_id: event.correlationId }),
    traceparent: event.traceparent,
  };
}

/** The attributes of a record's headers, or undefined when it carries no CloudEvent. */
export function readCloudEvent(headers: RecordHeaders): CloudEventAttributes | undefined {
  const { ce_id: id, ce_type: type, ce_source: source, ce_subject: subject, ce_time: time } = headers;
  if (!id || !type || !source || !subject || !time) return undefined;
  return {
    id,
    type,
    source,
    subject,
    time,
    traceparent: headers.traceparent ?? '',
    ...(headers.correlation_id === undefined ? {} : { correlationId: headers.correlation_id }),
  };
}
