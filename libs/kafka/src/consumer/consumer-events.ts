import type { BatonError } from '@baton/errors';
import type { ConsumedRecord, OutputRecord } from './consumed-record.js';

/**
 * Low-cardinality facts about a message for metrics (its type, say), as the processor's `decode`
 * gave them in `DecodedMessage.labels`; empty when the record could not be decoded.
 */
export type MessageLabels = Readonly<Record<string, string>>;

/**
 * What a consumer reports as it works: the one place where logs and metrics hook in. Every
 * callback is optional and must not throw.
 */
export interface ConsumerObserver {
  processed?(event: {
    record: ConsumedRecord;
    messageId: string;
    labels: MessageLabels;
    attempt: number;
    durationMs: number;
    /** The records committed with the message, in the same transaction. */
    outputs: readonly OutputRecord[];
  }): void;
  duplicate?(event: { record: ConsumedRecord; messageId: string; labels: MessageLabels }): void;
  retryScheduled?(event: {
    record: ConsumedRecord;
    /** Absent when the record could not be decoded. */
    messageId: string | undefined;
    labels: MessageLabels;
    error: BatonError;
    attempt: number;
    delayMs: number;
  }): void;
  deadLettered?(event: {
    record: ConsumedRecord;
    /** Absent when the record could not be decoded. */
    messageId: string | undefined;
    labels: MessageLabels;
    error: BatonError;
    attempts: number;
    deadLetterTopic: string;
  }): void;
  /** One transaction committed the outcome of `messages` consumed messages with `outputs` records (markers included). */
  transactionCommitted?(event: {
    topic: string;
    partition: number;
    messages: number;
    outputs: number;
    durationMs: number;
  }): void;
  /** Taking up a partition failed (the broker or the processed-id catch-up); it is tried again after `delayMs`. */
  partitionStartFailed?(event: { topic: string; partition: number; error: Error; delayMs: number }): void;
  /** Work for a partition stopped: lost in a rebalance, fenced by a newer owner, or a commit failed. */
  partitionStopped?(event: { topic: string; partition: number; reason: string }): void;
  partitionReady?(event: { topic: string; partition: number; catchUpMs: number }): void;
}
