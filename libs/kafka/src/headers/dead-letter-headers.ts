import type { RecordHeaders } from './record-headers.js';

/**
 * Dead-letter headers follow Kafka Connect's convention (`__connect.errors.*`, string values, so
 * kcat and the console consumer show them as they are). What Connect has no header for - the
 * stable error code, the attempt count, the consumer group, the time and whether the error was
 * retriable - goes under `baton.dlq.*`.
 */
export const DLQ_HEADERS = {
  topic: '__connect.errors.topic',
  partition: '__connect.errors.partition',
  offset: '__connect.errors.offset',
  stage: '__connect.errors.stage',
  className: '__connect.errors.class.name',
  message: '__connect.errors.exception.message',
  connector: '__connect.errors.connector.name',
  task: '__connect.errors.task.id',
  code: 'baton.dlq.error.code',
  retriable: 'baton.dlq.error.retriable',
  attempts: 'baton.dlq.attempts',
  group: 'baton.dlq.consumer.group',
  time: 'baton.dlq.time',
} as const;

export interface DeadLetterFacts {
  topic: string;
  partition: number;
  offset: string;
  /** Where processing failed: decode, validate, route, handle. */
  stage: string;
  errorCode: string;
  errorClass: string;
  errorMessage: string;
  retriable: boolean;
  attempts: number;
  consumerGroup: string;
  instanceId: string;
  time: string;
}

/** The original headers with the dead-letter facts added (replacing those of an earlier dead-lettering). */
export function deadLetterHeaders(original: RecordHeaders, facts: DeadLetterFacts): RecordHeaders {
  return {
    ...original,
    [DLQ_HEADERS.topic]: facts.topic,
    [DLQ_HEADERS.partition]: String(facts.partition),
    [DLQ_HEADERS.offset]: facts.offset,
    [DLQ_HEADERS.stage]: facts.stage,
    [DLQ_HEADERS.className]: facts.errorClass,
    [DLQ_HEADERS.message]: facts.errorMessage,
    [DLQ_HEADERS.connector]: facts.consumerGroup,
    [DLQ_HEADERS.task]: facts.instanceId,
    [DLQ_HEADERS.code]: facts.errorCode,
    [DLQ_HEADERS.retriable]: String(facts.retriable),
    [DLQ_HEADERS.attempts]: String(facts.attempts),
    [DLQ_HEADERS.group]: facts.consumerGroup,
    [DLQ_HEADERS.time]: facts.time,
  };
}

export function readDeadLetterFacts(headers: RecordHeaders): DeadLetterFacts | undefined {
  const code = headers[DLQ_HEADERS.code];
  const topic = headers[DLQ_HEADERS.topic];
  if (code === undefined || topic === undefined) return undefined;
  return {
    topic,
    partition: Number(headers[DLQ_HEADERS.partition]),
    offset: headers[DLQ_HEADERS.offset] ?? '',
    stage: headers[DLQ_HEADERS.stage] ?? '',
    errorCode: code,
    errorClass: headers[DLQ_HEADERS.className] ?? '',
    errorMessage: headers[DLQ_HEADERS.message] ?? '',
    retriable: headers[DLQ_HEADERS.retriable] === 'true',
    attempts: Number(headers[DLQ_HEADERS.attempts]),
    consumerGroup: headers[DLQ_HEADERS.group] ?? '',
    instanceId: headers[DLQ_HEADERS.task] ?? '',
    time: headers[DLQ_HEADERS.time] ?? '',
  };
}
