import {
  SpanKind,
  context,
  isSpanContextValid,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { CLOUDEVENTS, MESSAGING } from './attribute-names.js';
import { contextFromTraceparent, traceparentOf } from './traceparent-context.js';
import { recordFailure, tracer } from './with-span.js';

/** What the messaging spans need of a Kafka record: Baton's ConsumedRecord and OutputRecord fit. */
export interface TracedRecord {
  topic: string;
  key: string | null;
  headers?: Readonly<Record<string, string>>;
}

export interface ConsumedTracedRecord extends TracedRecord {
  partition: number;
  offset: string;
  value: Buffer | null;
}

function recordAttributes(
  record: TracedRecord,
  operation: string,
  operationType: string,
  headers: Readonly<Record<string, string>> = record.headers ?? {},
): Attributes {
  const attributes: Attributes = {
    [MESSAGING.system]: 'kafka',
    [MESSAGING.destinationName]: record.topic,
    [MESSAGING.operationType]: operationType,
    [MESSAGING.operationName]: operation,
  };
  if (record.key !== null) attributes[MESSAGING.kafkaKey] = record.key;
  if (headers.ce_id !== undefined) attributes[CLOUDEVENTS.eventId] = headers.ce_id;
  if (headers.ce_type !== undefined) attributes[CLOUDEVENTS.eventType] = headers.ce_type;
  if (headers.ce_source !== undefined) attributes[CLOUDEVENTS.eventSource] = headers.ce_source;
  return attributes;
}

/**
 * The CONSUMER span `process <topic>` of one delivery of a record, a child of the span that
 * produced it (the record's `traceparent`), so a task's hops across services are one trace. The
 * caller ends it; the message id is set once the record is decoded.
 */
export function startConsumeSpan(record: ConsumedTracedRecord, consumerGroup: string): Span {
  const attributes = recordAttributes(record, 'process', 'process');
  attributes[MESSAGING.partitionId] = String(record.partition);
  attributes[MESSAGING.kafkaOffset] = Number(record.offset);
  attributes[MESSAGING.consumerGroup] = consumerGroup;
  if (record.value !== null) attributes[MESSAGING.bodySize] = record.value.length;
  return tracer.startSpan(
    `process ${record.topic}`,
    { kind: SpanKind.CONSUMER, attributes },
    contextFromTraceparent(record.headers?.traceparent),
  );
}

/** Runs `fn` with `span` as the active context, so the spans `fn` starts are its children. */
export function runInSpan<T>(span: Span, fn: () => T): T {
  return context.with(trace.setSpan(context.active(), span), fn);
}

/**
 * The PRODUCER span `<operation> <topic>` of a record about to be written, a child of the active
 * span. `create` for a record that a transaction writes later with others (messaging semconv's
 * batch case: the span gives the record its own context), `send` for one written at once.
 */
export function startProduceSpan(
  record: TracedRecord,
  operation: 'create' | 'send',
  parent: Context = context.active(),
  /** All the record's headers, where some are not in `record.headers` (an encoded block of them). */
  headers: Readonly<Record<string, string>> = record.headers ?? {},
): Span {
  const attributes = recordAttributes(record, operation, operation, headers);
  if (headers.ce_id !== undefined) attributes[MESSAGING.messageId] = headers.ce_id;
  return tracer.startSpan(`${operation} ${record.topic}`, { kind: SpanKind.PRODUCER, attributes }, parent);
}

/**
 * `record` with the `traceparent` header that makes `span` the parent of its consumers' spans; as
 * it is when the span is the no-op API's, whose all-zero context would cut the trace the record carries.
 */
export function withTraceparent<R extends TracedRecord>(record: R, span: Span): R {
  const spanContext = span.spanContext();
  if (!isSpanContextValid(spanContext)) return record;
  return { ...record, headers: { ...record.headers, traceparent: traceparentOf(spanContext) } };
}

/**
 * Each record with a `create` span of its own, ended at once: the transaction that writes them
 * comes later, for many messages at a time, so the span marks the record's creation and gives
 * it the traceparent its consumers continue from.
 */
export function withCreateSpans<R extends TracedRecord>(
  records: readonly R[],
  /** A record's headers, where some are not in `record.headers` (an encoded block of them). */
  headersOf: (record: R) => Readonly<Record<string, string>> = (record) => record.headers ?? {},
): R[] {
  return records.map((record) => {
    const span = startProduceSpan(record, 'create', context.active(), headersOf(record));
    span.end();
    return withTraceparent(record, span);
  });
}

/**
 * Writes one record at once in a PRODUCER `send <topic>` span, whose context is the record's
 * `traceparent`. The span continues `parentTraceparent` (a client's) when given, else the active
 * context; with neither, it starts a trace.
 */
export async function withSendSpan<R extends TracedRecord, T>(
  record: R,
  parentTraceparent: string | undefined,
  send: (traced: R, span: Span) => Promise<T>,
): Promise<T> {
  const parent = parentTraceparent === undefined ? context.active() : contextFromTraceparent(parentTraceparent);
  const span = startProduceSpan(record, 'send', parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => send(withTraceparent(record, span), span));
  } catch (error) {
    recordFailure(span, error);
    throw error;
  } finally {
    span.end();
  }
}
