import type { BatonError } from '@baton/errors';
import type { ConsumedRecord } from './consumed-record.js';

/**
 * What a consumer reports as it works: the one place where logs and metrics hook in. Every
 * callback is optional and must not throw.
 */
export interface ConsumerObserver {
  processed?(event: {
    record: ConsumedRecord;
    messageId: string;
    attempt: number;
    durationMs: number;
    outputs: number;
  }): void;
  duplicate?(event: { record: ConsumedRecord; messageId: string }): void;
  retryScheduled?(event: { record: ConsumedRecord; error: BatonError; attempt: number; delayMs: number }): void;
  deadLettered?(event: { record: ConsumedRecord; error: BatonError; attempts: number; deadLetterTopic: string }): void;
  /** Work for a partition stopped: lost in a rebalance, fenced by a newer owner, or a commit failed. */
  partitionStopped?(event: { topic: string; partition: number; reason: string }): void;
  partitionReady?(event: { topic: string; partition: number; catchUpMs: number }): void;
}
