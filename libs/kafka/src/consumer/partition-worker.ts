import type { Producer } from 'kafkajs';
import { BatonError, OUTAGE_CODES, isBatonError, isPromiseLike, type MaybePromise } from '@baton/errors';
import { isTracingOn } from '@baton/telemetry';
import { deadLetterHeaders } from '../headers/dead-letter-headers.js';
import { isReplay } from '../headers/replay-headers.js';
import { backoffDelayMs, type BackoffPolicy } from './backoff.js';
import { roomOf } from './buffer-room.js';
import { tracedAttempt } from './consume-span.js';
import type { ConsumedRecord, OutputRecord } from './consumed-record.js';
import type { ConsumerObserver, MessageLabels } from './consumer-events.js';
import type { ConsumerTuning } from './consumer-tuning.js';
import { markersRecord, type MarkedId } from './id-markers.js';
import { KeyLanes } from './key-lanes.js';
import type { DecodedMessage, MessageProcessor } from './message-processor.js';
import { OffsetTracker } from './offset-tracker.js';
import type { Permits } from './permits.js';
import type { ProcessedIds } from './processed-ids.js';
import { MAX_REQUEST_BYTES, produceRequests, recordBytes, type TransactionRecord } from './produce-requests.js';

export interface PartitionWorkerSettings<T> {
  topic: string;
  partition: number;
  /** The partition's committed offset, where reading starts. */
  startOffset: number;
  groupId: string;
  instanceId: string;
  deadLetterTopic: string;
  processor: MessageProcessor<T>;
  processedIds: ProcessedIds;
  /** Transactional, owned by this worker: its transactional.id fences any earlier owner of the partition. */
  producer: Producer;
  defaultRetryLimit: number;
  backoff: BackoffPolicy;
  observer: ConsumerObserver;
  now: () => Date;
  tuning: Readonly<ConsumerTuning>;
  /** Handler slots, shared by the instance's partitions. */
  concurrency: Permits;
  /**
   * Gives back the instance's buffer room taken by `count` received messages of `bytes` in all
   * (roomOf), now committed or dropped.
   */
  releaseBuffered(count: number, bytes: number): void;
  /**
   * A transaction failed: the partition must start over from its committed offset. `fenced`: its
   * producer was fenced (a newer producer of its transactional id, or the coordinator's epoch bump
   * after a failover), so it is taken up again only if it is still this instance's.
   */
  onFailure(error: BatonError, fenced: boolean): void;
}

/** Records without a key share one ordering lane. */
const NO_KEY = '\u0000no-key';

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

/** The broker's fencing answer, found down the cause chain kafkajs wraps it in; undefined if not fenced. */
function fencedBy(error: unknown): string | undefined {
  for (let current: unknown = error; current !== undefined && current !== null;) {
    const { type, cause } = current as { type?: string; cause?: unknown };
    if (type !== undefined && FENCED.has(type)) return type;
    current = cause === current ? undefined : cause;
  }
  return undefined;
}

const laneOf = (record: ConsumedRecord): string => record.key ?? NO_KEY;

/** What became of one message; it takes effect when the transaction that carries it commits. */
interface Finished {
  record: ConsumedRecord;
  offset: number;
  kind: 'processed' | 'duplicate' | 'dead_lettered';
  messageId: string | undefined;
  labels: MessageLabels;
  /** Its outputs, dead letter included, in the order they are written. */
  outputs: OutputRecord[];
  attempt: number;
  startedAt: number;
  error?: BatonError;
  /** The next message of its task waits for this one's commit (MessageProcessor.readsOwnOutputs). */
  holdsTask?: boolean;
}

interface RetryLater {
  kind: 'retry';
  record: ConsumedRecord;
  messageId: string | undefined;
  labels: MessageLabels;
  error: BatonError;
  attempt: number;
  /** Stays `attempt` when the failure was the platform's, not the message's. */
  nextAttempt: number;
}

/**
 * All work on one partition of the source topic. Messages of different keys (tasks) run
 * concurrently, up to the instance's concurrency; a key's messages run one at a time in offset
 * order, so a message waiting for a retry holds back only its own task. Finished messages are
 * committed together: their outputs, processed-id markers and the partition's committable offset
 * in one Kafka transaction, which closes when no other message is in progress, or at the size
 * bounds, or after the commit interval. The committed offset never passes an unfinished message,
 * so a crash redelivers it, and the processed-id markers make the redelivered messages that had
 * finished count once. A transaction that fails stops the worker: the partition starts over from
 * its committed offset.
 */
export class PartitionWorker<T> {
  private readonly offsets: OffsetTracker;
  /** The offset the last transaction committed (at first, the one reading started from). */
  private committedOffset: number;
  private readonly lanes = new KeyLanes<ConsumedRecord>();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  /** Messages in a transaction not committed yet, by id: a redelivery meanwhile is a duplicate. */
  private readonly uncommitted = new Map<string, Finished>();
  private batch: Finished[] = [];
  /** recordBytes of the batch's outputs, in order: measured once, for the size bound and the produce requests. */
  private batchSizes: number[] = [];
  private batchBytes = 0;
  private batchOpenedAt = 0;
  private flushTimer: NodeJS.Timeout | undefined;
  private committing: Promise<void> | undefined;
  /** Attempts started and not ended, waiting for a handler slot included. */
  private inProgress = 0;
  /** Messages received and not yet committed or dropped, and their bytes: the instance's buffer room this worker holds. */
  private buffered = 0;
  private bufferedBytes = 0;
  private state: 'running' | 'draining' | 'stopped' = 'running';
  private drained: (() => void) | undefined;
  private stopping: Promise<void> | undefined;

  constructor(private readonly settings: PartitionWorkerSettings<T>) {
    this.offsets = new OffsetTracker(settings.startOffset);
    this.committedOffset = settings.startOffset;
  }

  get isStopped(): boolean {
    return this.state !== 'running';
  }

  /**
   * Takes a record in offset order, holding `bytes` of buffer room (roomOf), and starts it when its
   * task has nothing earlier in progress. False when the record is not taken (already received, or
   * the worker stopped): the caller keeps its buffer room.
   */
  receive(record: ConsumedRecord, bytes: number): boolean {
    const offset = Number(record.offset);
    if (this.state !== 'running' || this.offsets.hasReceived(offset)) return false;
    this.offsets.begin(offset);
    this.buffered += 1;
    this.bufferedBytes += bytes;
    if (this.lanes.push(laneOf(record), record)) this.start(record, 1);
    return true;
  }

  /**
   * Notes that a fetch whose records were all handed to `receive` (or that had none to hand over)
   * held offsets `first` to `last`, ending in a transaction's commit marker or an aborted
   * transaction's records: the next commit goes past them (OffsetTracker.skipThrough). With nothing
   * else to commit (a fetch of a marker alone, the partition idle), a transaction of the offset
   * alone commits it, so the partition does not stay a marker behind.
   */
  fetchedThrough(first: number, last: number): void {
    if (this.state !== 'running') return;
    this.offsets.skipThrough(first, last);
    if (this.inProgress > 0 || this.batch.length > 0 || this.committing || this.offsets.unfinishedCount > 0) return;
    if (this.offsets.committable() !== this.committedOffset) this.beginCommit([], []);
  }

  /**
   * Stops taking work and drops pending retries: the next owner gets them again from the committed
   * offset. With `drain`, the messages whose handlers are running finish and are committed first;
   * those waiting for a handler slot are left to the next owner too. Idempotent.
   */
  stop(reason: string, drain = false): Promise<void> {
    this.stopping ??= (async () => {
      for (const timer of this.retryTimers) clearTimeout(timer);
      this.retryTimers.clear();
      if (drain && this.state === 'running') {
        this.state = 'draining';
        await new Promise<void>((resolve) => {
          this.drained = resolve;
          this.checkDrained();
        });
      }
      this.state = 'stopped';
      clearTimeout(this.flushTimer);
      await this.committing;
      this.settings.releaseBuffered(this.buffered, this.bufferedBytes);
      this.buffered = 0;
      this.bufferedBytes = 0;
      await this.settings.producer.disconnect().catch(() => undefined);
      this.settings.observer.partitionStopped?.({
        topic: this.settings.topic,
        partition: this.settings.partition,
        reason,
      });
    })();
    return this.stopping;
  }

  private start(record: ConsumedRecord, attempt: number): void {
    this.inProgress += 1;
    void this.run(record, attempt);
  }

  /** One attempt at `record`, counted in inProgress from start() until it ends, however it ends. */
  private async run(record: ConsumedRecord, attempt: number): Promise<void> {
    try {
      const { concurrency } = this.settings;
      // A free slot is taken without awaiting: the await alone costs a turn of the microtask queue per message.
      if (!concurrency.tryAcquire() && !(await concurrency.acquire())) return;
      let outcome: Finished | RetryLater;
      try {
        // Draining or stopped: a message whose handler has not begun is left to the next owner,
        // which reads it again from the committed offset. A drain waits for the handlers running,
        // not for one more per task buffered: with slow handlers (a model's seconds) and thousands
        // of buffered tasks, that took minutes.
        if (this.isStopped) return;
        // Asked per message, so a service without tracing makes no span objects on this path.
        // Awaited even when the attempt ended at once: finish() starts the task's next message, and
        // without a turn of the microtask queue between them a task's backlog would recurse.
        outcome = isTracingOn()
          ? await tracedAttempt(record, this.settings.groupId, attempt, () => this.attempt(record, attempt))
          : await this.attempt(record, attempt);
      } finally {
        concurrency.release();
      }
      // Stopped while the handler ran: the next owner of the partition processes the message again.
      if (this.hasStopped()) return;
      if (outcome.kind === 'retry') this.scheduleRetry(outcome);
      else this.finish(outcome);
    } finally {
      // Here rather than in a .finally() on the call: two promises and a closure fewer per message.
      this.inProgress -= 1;
      this.scheduleFlush();
    }
  }

  /**
   * One attempt at `record`: its outcome at once when decoding and handling did not wait (nearly
   * every message: an async step is a suspended frame and a turn of the microtask queue per
   * message), else a Promise of it. A failure is an outcome too: a retry or a dead letter.
   */
  private attempt(record: ConsumedRecord, attempt: number): MaybePromise<Finished | RetryLater> {
    const startedAt = performance.now();
    try {
      const decoding = this.settings.processor.decode(record);
      if (!isPromiseLike(decoding)) return this.processDecoded(record, decoding, attempt, startedAt);
      return Promise.resolve(decoding).then(
        (message) => this.processDecoded(record, message, attempt, startedAt),
        (thrown: unknown) => this.failed(record, undefined, thrown, attempt, startedAt),
      );
    } catch (thrown) {
      return this.failed(record, undefined, thrown, attempt, startedAt);
    }
  }

  private processDecoded(
    record: ConsumedRecord,
    message: DecodedMessage<T>,
    attempt: number,
    startedAt: number,
  ): MaybePromise<Finished | RetryLater> {
    try {
      // One literal per outcome, not a shared part spread into each: this runs for every message.
      if (this.isDuplicate(message.messageId, record)) {
        return {
          record,
          offset: Number(record.offset),
          kind: 'duplicate',
          messageId: message.messageId,
          labels: message.labels ?? {},
          outputs: [],
          attempt,
          startedAt,
        };
      }
      if (message.expiresAt !== undefined && Date.parse(message.expiresAt) <= this.settings.now().getTime()) {
        throw new BatonError('HANDOFF_EXPIRED', `message expired at ${message.expiresAt}`, {
          path: '/metadata/expiration_time',
        });
      }
      const processing = this.settings.processor.process(message, { record, attempt });
      if (!isPromiseLike(processing)) return this.processed(record, message, processing, attempt, startedAt);
      return Promise.resolve(processing).then(
        (outputs) => this.processed(record, message, outputs, attempt, startedAt),
        (thrown: unknown) => this.failed(record, message, thrown, attempt, startedAt),
      );
    } catch (thrown) {
      return this.failed(record, message, thrown, attempt, startedAt);
    }
  }

  private processed(
    record: ConsumedRecord,
    message: DecodedMessage<T>,
    outputs: OutputRecord[],
    attempt: number,
    startedAt: number,
  ): Finished {
    return {
      record,
      offset: Number(record.offset),
      kind: 'processed',
      messageId: message.messageId,
      labels: message.labels ?? {},
      outputs,
      attempt,
      startedAt,
    };
  }

  /** What a failed attempt comes to: a retry while the error and the message allow one, else a dead letter. */
  private failed(
    record: ConsumedRecord,
    message: DecodedMessage<T> | undefined,
    thrown: unknown,
    attempt: number,
    startedAt: number,
  ): Finished | RetryLater {
    const error = asBatonError(thrown);
    const retry = (nextAttempt: number): RetryLater => ({
      kind: 'retry',
      record,
      messageId: message?.messageId,
      labels: message?.labels ?? {},
      error,
      attempt,
      nextAttempt,
    });
    if (OUTAGE_CODES.has(error.code)) return retry(attempt);
    const retryLimit = message?.retryLimit ?? this.settings.defaultRetryLimit;
    if (error.retriable && attempt <= retryLimit) return retry(attempt + 1);
    const final =
      error.retriable && attempt > retryLimit
        ? new BatonError('RETRIES_EXHAUSTED', `gave up after ${attempt} attempts: ${error.message}`, {
            cause: error,
            details: { lastErrorCode: error.code },
          })
        : error;
    return this.deadLetter(record, message, final, attempt, startedAt);
  }

  /** Already committed, or in a transaction on its way: processed, or dead-lettered and not replayed. */
  private isDuplicate(messageId: string, record: ConsumedRecord): boolean {
    const { processedIds, partition } = this.settings;
    const pending = this.uncommitted.get(messageId)?.kind;
    if (pending === 'processed' || processedIds.has(partition, messageId)) return true;
    return (
      (pending === 'dead_lettered' || processedIds.wasDeadLettered(partition, messageId)) && !isReplay(record.headers)
    );
  }

  private deadLetter(
    record: ConsumedRecord,
    message: DecodedMessage<T> | undefined,
    error: BatonError,
    attempts: number,
    startedAt: number,
  ): Finished {
    const { deadLetterTopic, processor } = this.settings;
    const letter: OutputRecord = {
      topic: deadLetterTopic,
      key: record.key ?? '',
      value: processor.deadLetterValue?.({ record, message, error, attempts }) ?? record.value ?? Buffer.alloc(0),
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
    return {
      record,
      offset: Number(record.offset),
      kind: 'dead_lettered',
      messageId: message?.messageId,
      labels: message?.labels ?? {},
      outputs: [letter, ...extra],
      attempt: attempts,
      startedAt,
      error,
    };
  }

  /** Retries the head of a task's lane after a backoff; the task's later messages wait for it. */
  private scheduleRetry(retry: RetryLater): void {
    if (this.state !== 'running') return;
    const delayMs = backoffDelayMs(this.settings.backoff, retry.attempt);
    this.settings.observer.retryScheduled?.({
      record: retry.record,
      messageId: retry.messageId,
      labels: retry.labels,
      error: retry.error,
      attempt: retry.attempt,
      delayMs,
    });
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      if (this.state === 'running') this.start(retry.record, retry.nextAttempt);
    }, delayMs);
    this.retryTimers.add(timer);
  }

  /** Adds a finished message to the open transaction and starts the next message of its task. */
  private finish(finished: Finished): void {
    if (finished.messageId !== undefined && finished.kind !== 'duplicate') {
      this.uncommitted.set(finished.messageId, finished);
    }
    if (this.batch.length === 0) this.batchOpenedAt = performance.now();
    this.batch.push(finished);
    for (const output of finished.outputs) {
      const bytes = recordBytes(output);
      this.batchSizes.push(bytes);
      this.batchBytes += bytes;
    }
    if (this.settings.processor.readsOwnOutputs) finished.holdsTask = true;
    else this.startNextOfTask(finished);
  }

  private startNextOfTask(finished: Finished): void {
    const next = this.lanes.advance(laneOf(finished.record));
    if (next && this.state === 'running') this.start(next, 1);
  }

  /**
   * Commits at once when nothing else is in progress (a light load waits for nothing) or a size
   * bound is reached; otherwise within the commit interval of the first message waiting.
   */
  private scheduleFlush(): void {
    if (this.state === 'stopped' || this.committing || this.batch.length === 0) {
      this.checkDrained();
      return;
    }
    const { commitMaxMessages, commitMaxBytes, commitIntervalMs } = this.settings.tuning;
    if (
      this.inProgress === 0 ||
      this.settings.processor.readsOwnOutputs === true ||
      this.batch.length >= commitMaxMessages ||
      this.batchBytes >= commitMaxBytes
    ) {
      this.flush();
      return;
    }
    this.flushTimer ??= setTimeout(
      () => {
        this.flushTimer = undefined;
        this.flush();
      },
      Math.max(0, this.batchOpenedAt + commitIntervalMs - performance.now()),
    );
  }

  private flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.committing || this.batch.length === 0 || this.state === 'stopped') return;
    const batch = this.batch;
    const sizes = this.batchSizes;
    this.batch = [];
    this.batchSizes = [];
    this.batchBytes = 0;
    this.beginCommit(batch, sizes);
  }

  /** Commits `batch` (none: the offset alone); what finished meanwhile is flushed after it. */
  private beginCommit(batch: Finished[], sizes: number[]): void {
    this.committing = this.commit(batch, sizes).finally(() => {
      this.committing = undefined;
      this.scheduleFlush();
    });
  }

  /** One transaction for the batch: outputs and markers in as few produce requests as fit, then the offset. */
  private async commit(batch: Finished[], sizes: number[]): Promise<void> {
    const { producer, processedIds, groupId, topic, partition, observer } = this.settings;
    const started = performance.now();
    for (const finished of batch) this.offsets.finish(finished.offset);
    const committable = this.offsets.committable() as number;
    const records: TransactionRecord[] = [];
    const marked: MarkedId[] = [];
    for (const finished of batch) {
      records.push(...finished.outputs);
      if (finished.messageId !== undefined && finished.kind !== 'duplicate') {
        marked.push({ messageId: finished.messageId, result: finished.kind });
      }
    }
    if (marked.length > 0) {
      records.push({
        topic: processedIds.topic,
        ...markersRecord(partition, (batch[0] as Finished).record.offset, marked),
      });
    }
    try {
      const transaction = await producer.transaction();
      try {
        for (const topicMessages of produceRequests(records, MAX_REQUEST_BYTES, sizes)) {
          await transaction.sendBatch({ topicMessages });
        }
        await transaction.sendOffsets({
          consumerGroupId: groupId,
          topics: [{ topic, partitions: [{ partition, offset: String(committable) }] }],
        });
        await transaction.commit();
      } catch (error) {
        await transaction.abort().catch(() => undefined);
        throw error;
      }
    } catch (error) {
      this.fail(error);
      return;
    }
    this.committedOffset = committable;
    let bytes = 0;
    for (const finished of batch) bytes += roomOf(finished.record);
    this.buffered -= batch.length;
    this.bufferedBytes -= bytes;
    this.settings.releaseBuffered(batch.length, bytes);
    for (const finished of batch) {
      if (finished.messageId !== undefined && finished.kind !== 'duplicate') {
        processedIds.add(partition, finished.messageId, finished.kind);
        if (this.uncommitted.get(finished.messageId) === finished) this.uncommitted.delete(finished.messageId);
      }
      this.report(finished);
      if (finished.holdsTask) this.startNextOfTask(finished);
    }
    observer.transactionCommitted?.({
      topic,
      partition,
      messages: batch.length,
      outputs: records.length,
      durationMs: performance.now() - started,
    });
  }

  private report(finished: Finished): void {
    const { observer, deadLetterTopic } = this.settings;
    const { record, messageId, labels } = finished;
    if (finished.kind === 'duplicate' && messageId !== undefined) {
      observer.duplicate?.({ record, messageId, labels });
    } else if (finished.kind === 'processed' && messageId !== undefined) {
      observer.processed?.({
        record,
        messageId,
        labels,
        attempt: finished.attempt,
        durationMs: performance.now() - finished.startedAt,
        outputs: finished.outputs,
      });
    } else if (finished.kind === 'dead_lettered' && finished.error) {
      observer.deadLettered?.({
        record,
        messageId,
        labels,
        error: finished.error,
        attempts: finished.attempt,
        deadLetterTopic,
      });
    }
  }

  /** Nothing of an aborted transaction took effect; the partition starts over from its committed offset. */
  private fail(error: unknown): void {
    const fenced = fencedBy(error);
    this.state = 'stopped';
    this.drained?.();
    const reason = fenced
      ? `fenced: ${fenced}`
      : `transaction failed: ${error instanceof Error ? error.message : String(error)}`;
    void this.stop(reason);
    this.settings.onFailure(new BatonError('KAFKA_UNAVAILABLE', reason, { cause: error }), fenced !== undefined);
  }

  private hasStopped(): boolean {
    return this.state === 'stopped';
  }

  private checkDrained(): void {
    if (this.state === 'draining' && this.inProgress === 0 && this.batch.length === 0 && !this.committing) {
      this.drained?.();
    }
  }
}
