import type { Producer } from 'kafkajs';
import { BatonError, isBatonError } from '@baton/errors';
import { deadLetterHeaders } from '../headers/dead-letter-headers.js';
import { backoffDelayMs, type BackoffPolicy } from './backoff.js';
import type { ConsumedRecord, OutputRecord } from './consumed-record.js';
import type { ConsumerObserver } from './consumer-events.js';
import type { DecodedMessage, MessageProcessor } from './message-processor.js';
import { OffsetTracker } from './offset-tracker.js';
import type { MessageResult, ProcessedIds } from './processed-ids.js';
import { isReplay } from '../headers/replay-headers.js';
import { TaskGate } from './task-gate.js';

export interface PartitionWorkerSettings<T> {
  topic: string;
  partition: number;
  groupId: string;
  instanceId: string;
  deadLetterTopic: string;
  processor: MessageProcessor<T>;
  processedIds: ProcessedIds;
  producer: Producer;
  defaultRetryLimit: number;
  backoff: BackoffPolicy;
  observer: ConsumerObserver;
  now: () => Date;
}

/** Records without a key share one ordering lane. */
const NO_KEY = '\u0000no-key';

/**
 * Failures of the platform, not of the message: they are retried for as long as they last
 * (with backoff) and do not use up the message's own retry_count.
 */
const INFRASTRUCTURE_CODES = new Set(['KAFKA_UNAVAILABLE', 'REGISTRY_UNAVAILABLE']);

// Kafka's answers when a newer owner of the transactional id has taken over.
const FENCED = new Set(['PRODUCER_FENCED', 'INVALID_PRODUCER_EPOCH', 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED']);

function asBatonError(error: unknown): BatonError {
  if (isBatonError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new BatonError('HANDLER_FAILED', message, { cause: error });
}

/** The class of what was originally thrown, under the BatonErrors that wrap it. */
function errorClassName(error: BatonError): string {
  let current: unknown = error;
  while (isBatonError(current) && current.cause !== undefined) current = current.cause;
  return current instanceof Error ? current.constructor.name : typeof current;
}

/**
 * All work on one partition of the source topic, in one serial lane: first attempts in offset
 * order, retries when their backoff ends. A message waiting for a retry blocks only its own task
 * (its key); the offset committed never passes it, so a crash redelivers it, and the processed-id
 * markers make the redelivered messages that had finished count once.
 */
export class PartitionWorker<T> {
  private lane: Promise<void> = Promise.resolve();
  private readonly offsets = new OffsetTracker();
  private readonly gate = new TaskGate<ConsumedRecord>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly settings: PartitionWorkerSettings<T>) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Takes a record in offset order; resolves when its first attempt (and what it released) is done. */
  receive(record: ConsumedRecord): Promise<void> {
    this.offsets.begin(BigInt(record.offset));
    return this.enqueue(async () => {
      const key = record.key ?? NO_KEY;
      if (this.gate.isBlocked(key)) this.gate.hold(key, record);
      else await this.attempt(record, 1);
    });
  }

  /** Stops taking work and drops retries: the next owner gets them again from the committed offset. */
  async stop(reason: string): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await this.lane;
    await this.settings.producer.disconnect();
    this.settings.observer.partitionStopped?.({
      topic: this.settings.topic,
      partition: this.settings.partition,
      reason,
    });
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    const run = this.lane.then(() => (this.stopped ? undefined : work()));
    this.lane = run.catch(() => undefined);
    return run;
  }

  private async attempt(record: ConsumedRecord, attempt: number): Promise<void> {
    const { processor, processedIds, partition } = this.settings;
    const started = performance.now();
    let message: DecodedMessage<T> | undefined;
    try {
      message = await processor.decode(record);
      if (
        processedIds.has(partition, message.messageId) ||
        (processedIds.wasDeadLettered(partition, message.messageId) && !isReplay(record.headers))
      ) {
        await this.commit(record, [], undefined);
        this.settings.observer.duplicate?.({ record, messageId: message.messageId, labels: message.labels ?? {} });
      } else {
        if (message.expiresAt !== undefined && Date.parse(message.expiresAt) <= this.settings.now().getTime()) {
          throw new BatonError('HANDOFF_EXPIRED', `message expired at ${message.expiresAt}`, {
            path: '/metadata/expiration_time',
          });
        }
        const outputs = await processor.process(message, { record, attempt });
        await this.commit(record, outputs, message.messageId);
        this.settings.observer.processed?.({
          record,
          messageId: message.messageId,
          labels: message.labels ?? {},
          attempt,
          durationMs: performance.now() - started,
          outputs,
        });
      }
    } catch (thrown) {
      if (this.isFenced(thrown)) return;
      const error = asBatonError(thrown);
      if (INFRASTRUCTURE_CODES.has(error.code)) {
        this.scheduleRetry(record, message, error, attempt, attempt);
        return;
      }
      const retryLimit = message?.retryLimit ?? this.settings.defaultRetryLimit;
      if (error.retriable && attempt <= retryLimit) {
        this.scheduleRetry(record, message, error, attempt);
        return;
      }
      const final =
        error.retriable && attempt > retryLimit
          ? new BatonError('RETRIES_EXHAUSTED', `gave up after ${attempt} attempts: ${error.message}`, {
              cause: error,
              details: { lastErrorCode: error.code },
            })
          : error;
      if (!(await this.deadLetter(record, message, final, attempt))) return;
    }
    await this.releaseHeld(record);
  }

  /** Retries `record` after a backoff; `nextAttempt` stays `attempt` when the failure was not the message's. */
  private scheduleRetry(
    record: ConsumedRecord,
    message: DecodedMessage<T> | undefined,
    error: BatonError,
    attempt: number,
    nextAttempt = attempt + 1,
  ): void {
    const key = record.key ?? NO_KEY;
    this.gate.block(key);
    const delayMs = backoffDelayMs(this.settings.backoff, attempt);
    this.settings.observer.retryScheduled?.({
      record,
      messageId: message?.messageId,
      labels: message?.labels ?? {},
      error,
      attempt,
      delayMs,
    });
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.enqueue(() => this.attempt(record, nextAttempt)).catch(() => undefined);
    }, delayMs);
    this.timers.add(timer);
  }

  /** After a message of a blocked task finished, its held messages go on in order until one blocks again. */
  private async releaseHeld(record: ConsumedRecord): Promise<void> {
    const key = record.key ?? NO_KEY;
    if (!this.gate.isBlocked(key)) return;
    const held = this.gate.release(key);
    for (const next of held) {
      if (this.gate.isBlocked(key)) this.gate.hold(key, next);
      else await this.attempt(next, 1);
    }
  }

  /** Returns false when the partition was lost while dead-lettering. */
  private async deadLetter(
    record: ConsumedRecord,
    message: DecodedMessage<T> | undefined,
    error: BatonError,
    attempts: number,
  ): Promise<boolean> {
    const { deadLetterTopic, processor } = this.settings;
    const letter: OutputRecord = {
      topic: deadLetterTopic,
      key: record.key ?? '',
      value: record.value ?? Buffer.alloc(0),
      headers: deadLetterHeaders(record.headers, {
        topic: record.topic,
        partition: record.partition,
        offset: record.offset,
        stage: String(error.details?.stage ?? (message ? 'process' : 'decode')),
        errorCode: error.code,
        errorClass: errorClassName(error),
        errorMessage: error.message,
        retriable: error.retriable,
        attempts,
        consumerGroup: this.settings.groupId,
        instanceId: this.settings.instanceId,
        time: this.settings.now().toISOString(),
      }),
    };
    const extra = processor.deadLetterOutputs?.({ record, message, error, attempts }) ?? [];
    try {
      await this.commit(record, [letter, ...extra], message?.messageId, 'dead_lettered');
    } catch (thrown) {
      if (this.isFenced(thrown)) return false;
      // The dead-letter topic itself cannot be written: retry the whole message later rather than lose it.
      this.scheduleRetry(record, message, asBatonError(thrown), attempts, attempts);
      return false;
    }
    this.settings.observer.deadLettered?.({
      record,
      messageId: message?.messageId,
      labels: message?.labels ?? {},
      error,
      attempts,
      deadLetterTopic,
    });
    return true;
  }

  /** Writes outputs, the processed-id marker and the committable offset in one transaction. */
  private async commit(
    record: ConsumedRecord,
    outputs: OutputRecord[],
    messageId: string | undefined,
    result: MessageResult = 'processed',
  ): Promise<void> {
    const { producer, processedIds, groupId, topic, partition } = this.settings;
    const offset = BigInt(record.offset);
    const transaction = await producer.transaction();
    try {
      for (const output of outputs) {
        await transaction.send({
          topic: output.topic,
          messages: [{ key: output.key, value: output.value, headers: output.headers, partition: output.partition }],
        });
      }
      if (messageId !== undefined) {
        await transaction.send({
          topic: processedIds.topic,
          messages: [processedIds.marker(partition, messageId, record.offset, result)],
        });
      }
      const committable = this.offsets.committableAfter(offset) ?? offset + 1n;
      await transaction.sendOffsets({
        consumerGroupId: groupId,
        topics: [{ topic, partitions: [{ partition, offset: committable.toString() }] }],
      });
      await transaction.commit();
    } catch (error) {
      await transaction.abort().catch(() => undefined);
      throw isBatonError(error)
        ? error
        : new BatonError('KAFKA_UNAVAILABLE', `transaction failed: ${(error as Error).message}`, { cause: error });
    }
    if (messageId !== undefined) processedIds.add(partition, messageId, result);
    this.offsets.finish(offset);
  }

  private isFenced(error: unknown): boolean {
    // kafkajs wraps the broker's answer in retry errors; the protocol error is down the cause chain.
    for (let current: unknown = error; current !== undefined && current !== null;) {
      const { type, cause } = current as { type?: string; cause?: unknown };
      if (type !== undefined && FENCED.has(type)) {
        void this.stop(`fenced: ${type}`);
        return true;
      }
      current = cause === current ? undefined : cause;
    }
    return false;
  }
}
