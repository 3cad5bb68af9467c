import type { BatonError, MaybePromise } from '@baton/errors';
import { BATON, MESSAGING, recordFailure, runInSpan, startConsumeSpan } from '@baton/telemetry';
import type { ConsumedRecord } from './consumed-record.js';

/** What became of one attempt at a message, as its span tells it. */
export interface AttemptOutcome {
  kind: 'processed' | 'duplicate' | 'dead_lettered' | 'retry';
  /** Absent when the record could not be decoded. */
  messageId: string | undefined;
  error?: BatonError;
}

/**
 * Runs one attempt at a record in its CONSUMER span (see startConsumeSpan), the active context
 * while the processor decodes and handles it, so the processor's spans are its children. The span
 * tells the message id and the outcome; a retry or a dead letter marks it failed with the error.
 */
export async function tracedAttempt<O extends AttemptOutcome>(
  record: ConsumedRecord,
  consumerGroup: string,
  attempt: number,
  run: () => MaybePromise<O>,
): Promise<O> {
  const span = startConsumeSpan(record, consumerGroup);
  span.setAttribute(BATON.attempt, attempt);
  try {
    const outcome = await runInSpan(span, run);
    if (outcome.messageId !== undefined) span.setAttribute(MESSAGING.messageId, outcome.messageId);
    span.setAttribute(BATON.outcome, outcome.kind);
    if (outcome.error !== undefined) {
      span.setAttribute(BATON.errorCode, outcome.error.code);
      recordFailure(span, outcome.error);
    }
    return outcome;
  } finally {
    span.end();
  }
}
