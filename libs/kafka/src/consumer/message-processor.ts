import type { BatonError, MaybePromise } from '@baton/errors';
import type { ConsumedRecord, OutputRecord } from './consumed-record.js';
import type { MessageLabels } from './consumer-events.js';

export interface DecodedMessage<T> {
  value: T;
  /** The idempotency key. */
  messageId: string;
  /** Retries after the first attempt that this message allows; the consumer's default when absent. */
  retryLimit?: number;
  /** ISO 8601; past it the message goes to the dead-letter topic unprocessed. */
  expiresAt?: string;
  /**
   * Facts about the message that observers label metrics with (its type, say). Keep the values
   * few: every distinct combination becomes a time series.
   */
  labels?: MessageLabels;
}

export interface ProcessingContext {
  record: ConsumedRecord;
  /** 1 for the first attempt. */
  attempt: number;
}

export interface DeadLetterContext<T> {
  record: ConsumedRecord;
  /** Absent when the record could not be decoded. */
  message: DecodedMessage<T> | undefined;
  error: BatonError;
  attempts: number;
}

/**
 * What a service does with the records of its topic. Outputs are returned, not sent: the consumer
 * writes them in one Kafka transaction with the consumed offset and the processed-id marker, so
 * they exist exactly when the message counts as processed.
 */
export interface MessageProcessor<T> {
  /**
   * Turns a record into a message; throws or rejects with a BatonError (non-retriable for
   * malformed input). A Promise only when decoding has to wait (a schema not fetched yet): the
   * consumer awaits nothing else, as every record it reads is decoded.
   */
  decode(record: ConsumedRecord): MaybePromise<DecodedMessage<T>>;
  /** The message's outputs; throws or rejects on failure. A Promise only when processing waits. */
  process(message: DecodedMessage<T>, context: ProcessingContext): MaybePromise<OutputRecord[]>;
  /** Extra records to publish with a dead letter, e.g. an outcome event. */
  deadLetterOutputs?(context: DeadLetterContext<T>): OutputRecord[];
  /**
   * The value the dead letter holds instead of the record's own; undefined keeps the record's. For
   * a refusal whose reason is what the value holds in clear (personal data): the DLQ gets it sealed.
   */
  deadLetterValue?(context: DeadLetterContext<T>): Buffer | undefined;
  /**
   * True when processing reads state that this processor's own earlier outputs wrote (a store read
   * back from a topic): a task's next message then starts only once the previous one's
   * transaction has committed, instead of as soon as it finished, and that transaction commits at once.
   */
  readsOwnOutputs?: boolean;
}
