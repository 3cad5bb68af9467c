import type { Admin, Consumer, Producer } from 'kafkajs';
import type { BatonError } from '@baton/errors';
import { kafkajsProducer } from '../create-kafka.js';
import { kafkajsClient, type KafkaClient } from '../kafka-client.js';
import { deadLetterTopic, processedIdsTopic } from '../topics/topic-names.js';
import { DEFAULT_BACKOFF, backoffDelayMs, type BackoffPolicy } from './backoff.js';
import { BufferRoom, roomOf } from './buffer-room.js';
import { consumedRecord } from './consumed-record.js';
import type { ConsumerObserver } from './consumer-events.js';
import { consumerTuning, type ConsumerTuning } from './consumer-tuning.js';
import type { MessageProcessor } from './message-processor.js';
import { PartitionWorker } from './partition-worker.js';
import { Permits } from './permits.js';
import { ProcessedIds } from './processed-ids.js';
import { fetchTopicWatermarks } from '../topics/topic-watermarks.js';

export interface ExactlyOnceConsumerOptions<T> {
  kafka: KafkaClient;
  groupId: string;
  topic: string;
  /** Names this process in dead-letter headers and transactional ids' logs. */
  instanceId: string;
  processor: MessageProcessor<T>;
  /** Retries when a message names none (failure_handling_strategy.retry_count). @default 3 */
  defaultRetryLimit?: number;
  /** @default 200 ms doubling to 30 s */
  backoff?: BackoffPolicy;
  /** Concurrency, buffering and transaction bounds; see DEFAULT_CONSUMER_TUNING. */
  tuning?: Partial<ConsumerTuning>;
  /** Partitions whose fetched batches are handed over at the same time. @default 16 */
  partitionsConsumedConcurrently?: number;
  /** How long processed ids are remembered; match the `.processed` topic's retention. @default 7 days */
  dedupeRetentionMs?: number;
  /** How long a new partition owner may take to read the processed ids. @default 60 s */
  catchUpTimeoutMs?: number;
  observer?: ConsumerObserver;
  now?: () => Date;
}

/** Fetching waits while the instance's buffer is full; the group must still hear from it. */
const HEARTBEAT_WHILE_WAITING_MS = 3_000;

/** Taking up a partition again after a failure backs off, so a broker outage is not hammered. */
const RESTART_BACKOFF: BackoffPolicy = { initialDelayMs: 200, maxDelayMs: 5_000, multiplier: 2 };

/**
 * How long a fenced partition waits before it is taken up again, if the group still assigns it
 * here: a newer owner's rebalance reaches this instance by then and takes it away, while a fencing
 * with no other owner (the coordinator bumped the producer's epoch after a failover) does not stop
 * the partition for good.
 */
const FENCED_RETAKE_MS = 1_000;

/** One assigned partition: its worker once taken up, and whether it was given up meanwhile. */
interface PartitionSlot<T> {
  worker?: PartitionWorker<T>;
  starting?: Promise<void>;
  cancelled: boolean;
}

/**
 * Consumes one topic with exactly-once effect per message_id. Messages of different tasks (record
 * keys) are processed concurrently, a task's messages in order; the outputs, processed-id markers
 * and offsets of many messages are committed together in one Kafka transaction by a transactional
 * producer per source partition (its transactional.id fences a previous owner of the partition, so
 * a zombie cannot commit after a rebalance). Transient failures are retried with backoff without
 * holding up other tasks; permanent ones go to `<topic>.dlq`. A partition is taken up, and taken
 * up again after a failed transaction, from its committed offset once the processed ids committed
 * before are known.
 */
export class ExactlyOnceConsumer<T> {
  private readonly consumer: Consumer;
  private readonly processedIds: ProcessedIds;
  private readonly tuning: Readonly<ConsumerTuning>;
  private readonly concurrency: Permits;
  private readonly room: BufferRoom;
  private readonly slots = new Map<number, PartitionSlot<T>>();
  /** The partitions the group assigned here at its last join. */
  private assigned = new Set<number>();
  /** Fenced partitions waiting to be taken up again (restart). */
  private readonly retakes = new Set<NodeJS.Timeout>();
  private admin: Promise<Admin> | undefined;
  private closing: Promise<void> | undefined;
  private running = false;

  constructor(private readonly options: ExactlyOnceConsumerOptions<T>) {
    this.tuning = consumerTuning(options.tuning);
    this.concurrency = new Permits(this.tuning.maxConcurrency);
    this.room = new BufferRoom(this.tuning.maxBuffered, this.tuning.maxBufferedBytes);
    const sessionTimeout = this.tuning.sessionTimeoutMs;
    this.consumer = kafkajsClient(options.kafka).consumer({
      groupId: options.groupId,
      sessionTimeout,
      // A third of the session timeout, as Kafka advises, rather than kafkajs's 3 s: an idle instance
      // heartbeats every 10 s instead of every 3 (by default). The price: a member learns of a
      // rebalance (an instance joining or leaving) only at its next heartbeat, so a rebalance takes
      // up to that much longer to complete.
      heartbeatInterval: Math.floor(sessionTimeout / 3),
      maxWaitTimeInMs: this.tuning.fetchWaitMs,
      // Read only committed records: a transaction aborted upstream must not be processed.
      readUncommitted: false,
      maxBytesPerPartition: this.tuning.fetchMaxBytesPerPartition,
    });
    this.processedIds = new ProcessedIds(
      options.kafka,
      processedIdsTopic(options.topic),
      `${options.groupId}.processed-reader.${options.instanceId}`,
      options.dedupeRetentionMs,
      this.tuning.dedupeMaxIdsPerPartition,
    );
  }

  /**
   * Messages this instance has received and not yet committed: waiting for their task's turn,
   * being handled, or done and waiting for their transaction. It fetches ahead up to `maxBuffered`
   * messages and `maxBufferedBytes`, so below those this is every uncommitted message of its partitions.
   */
  get uncommitted(): number {
    return this.room.heldMessages;
  }

  /** True once the consumer has joined its group and runs. */
  get isRunning(): boolean {
    return this.running;
  }

  async start(): Promise<void> {
    const { topic } = this.options;
    await this.processedIds.start();
    await this.consumer.connect();
    this.consumer.on(this.consumer.events.GROUP_JOIN, ({ payload }) => {
      // Also after kafkajs restarted the consumer following a crash: it is taking work again.
      this.running = true;
      const assigned = new Set(payload.memberAssignment[topic] ?? []);
      this.assigned = assigned;
      for (const partition of [...this.slots.keys()]) {
        if (!assigned.has(partition)) void this.giveUp(partition, 'partition revoked in a rebalance');
      }
      for (const partition of assigned) this.takeUp(partition);
    });
    this.consumer.on(this.consumer.events.CRASH, () => {
      this.running = false;
    });
    // A fetch that held only records a read_committed consumer never delivers (a commit marker
    // alone, an aborted transaction) reaches no eachBatch: kafkajs tells of it in this event only.
    this.consumer.on(this.consumer.events.END_BATCH_PROCESS, ({ payload }) => {
      const worker = this.slots.get(payload.partition)?.worker;
      if (payload.batchSize === 0 && worker) fetchedThrough(worker, payload.firstOffset, payload.lastOffset);
    });
    await this.consumer.subscribe({ topic, fromBeginning: true });
    await this.consumer.run({
      autoCommit: false,
      partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? 16,
      // Hands records over and returns: kafkajs fetches again only when every batch of a fetch
      // returned, so waiting here for handlers would hold up every partition behind the slowest.
      eachBatch: async ({ batch, heartbeat, isStale, isRunning }) => {
        const worker = this.slots.get(batch.partition)?.worker;
        if (!worker) {
          // Not taken up yet: dropped, and fetched again from the committed offset once it is.
          this.takeUp(batch.partition);
          return;
        }
        // Staleness (a seek, a rebalance) and a stop can only come about while this loop awaits: asked
        // at the start and after each wait, not for every record (kafkajs's isStale allocates a lookup key).
        if (isStale() || !isRunning()) return;
        for (const message of batch.messages) {
          if (worker.isStopped || this.closing) return;
          const record = consumedRecord(topic, batch.partition, message);
          const bytes = roomOf(record);
          if (!this.room.tryTake(bytes)) {
            if (!(await this.waitForRoom(bytes, heartbeat))) return;
            if (isStale() || !isRunning()) {
              this.room.give(1, bytes);
              return;
            }
          }
          // Not taken: received before (kafkajs fetches again from the committed offset after a
          // rebalance that left the partition here), or the worker stopped, checked above next.
          if (!worker.receive(record, bytes)) this.room.give(1, bytes);
        }
        // Every record handed over: what the fetch held after them is a commit marker or records of
        // an aborted transaction, which a read_committed consumer never delivers.
        fetchedThrough(worker, batch.firstOffset(), batch.lastOffset());
      },
    });
    this.running = true;
  }

  /** Waits for buffer room for `bytes`, heartbeating meanwhile; false when the consumer is closing. */
  private async waitForRoom(bytes: number, heartbeat: () => Promise<void>): Promise<boolean> {
    const beat = setInterval(() => void heartbeat().catch(() => undefined), HEARTBEAT_WHILE_WAITING_MS);
    try {
      return await this.room.take(bytes);
    } finally {
      clearInterval(beat);
    }
  }

  /** Starts taking up `partition` unless it is under way: fetching it pauses until its worker is ready. */
  private takeUp(partition: number): void {
    if (this.slots.has(partition) || this.closing) return;
    const slot: PartitionSlot<T> = { cancelled: false };
    this.slots.set(partition, slot);
    this.consumer.pause([{ topic: this.options.topic, partitions: [partition] }]);
    slot.starting = this.startWorker(partition, slot);
  }

  private async startWorker(partition: number, slot: PartitionSlot<T>): Promise<void> {
    const { topic, observer } = this.options;
    for (let attempt = 1; !slot.cancelled; attempt += 1) {
      const started = performance.now();
      const producer = this.transactionalProducer(partition);
      try {
        await producer.connect();
        // Its first transaction fences an earlier owner and waits for that owner's open transaction to end.
        await this.processedIds.catchUp(producer, partition, this.options.catchUpTimeoutMs ?? 60_000);
        const offset = await this.committedOffset(partition);
        if (slot.cancelled) {
          await producer.disconnect();
          return;
        }
        slot.worker = this.createWorker(partition, producer, Number(offset));
        // Whatever kafkajs fetched before this point is stale: reading goes on from the committed offset.
        this.consumer.seek({ topic, partition, offset });
        this.consumer.resume([{ topic, partitions: [partition] }]);
        observer?.partitionReady?.({ topic, partition, catchUpMs: performance.now() - started });
        return;
      } catch (error) {
        await producer.disconnect().catch(() => undefined);
        if (slot.cancelled) return;
        const delayMs = backoffDelayMs(RESTART_BACKOFF, attempt);
        observer?.partitionStartFailed?.({ topic, partition, error: error as Error, delayMs });
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    }
  }

  private transactionalProducer(partition: number): Producer {
    const { kafka, groupId, topic } = this.options;
    return kafkajsProducer(kafka, {
      transactionalId: `${groupId}.${topic}.${partition}`,
      idempotent: true,
      maxInFlightRequests: 1,
      // A transaction right after another's commit meets CONCURRENT_TRANSACTIONS until the broker
      // has written the commit markers, a few ms. kafkajs's default first backoff of 300 ms made
      // every transaction take ~220 ms here; the Java client backs off 20 ms for the same reason.
      retry: { initialRetryTime: 5, maxRetryTime: 1_000, retries: 10 },
    });
  }

  /** The group's committed offset of `partition`, else the partition's first offset. */
  private async committedOffset(partition: number): Promise<string> {
    const { groupId, topic, kafka } = this.options;
    this.admin ??= (async () => {
      const admin = kafkajsClient(kafka).admin();
      await admin.connect();
      return admin;
    })();
    this.admin.catch(() => (this.admin = undefined));
    const admin = await this.admin;
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    const offset = committed?.partitions.find((entry) => entry.partition === partition)?.offset ?? '-1';
    if (offset !== '-1') return offset;
    // Bounded: a failure here starts the partition's take-up over (startWorker), after a backoff.
    const watermarks = await fetchTopicWatermarks(admin, topic, AbortSignal.timeout(30_000));
    return watermarks.find((entry) => entry.partition === partition)?.low ?? '0';
  }

  private createWorker(partition: number, producer: Producer, startOffset: number): PartitionWorker<T> {
    const { groupId, topic } = this.options;
    return new PartitionWorker<T>({
      topic,
      partition,
      startOffset,
      groupId,
      instanceId: this.options.instanceId,
      deadLetterTopic: deadLetterTopic(topic),
      processor: this.options.processor,
      processedIds: this.processedIds,
      producer,
      defaultRetryLimit: this.options.defaultRetryLimit ?? 3,
      backoff: this.options.backoff ?? DEFAULT_BACKOFF,
      observer: this.options.observer ?? {},
      now: this.options.now ?? (() => new Date()),
      tuning: this.tuning,
      concurrency: this.concurrency,
      releaseBuffered: (count, bytes) => this.room.give(count, bytes),
      onFailure: (error, fenced) => this.restart(partition, error, fenced),
    });
  }

  /**
   * After a failed transaction: the partition is taken up anew, from its committed offset; when
   * fenced, after FENCED_RETAKE_MS and only if the group still assigns it here.
   */
  private restart(partition: number, error: BatonError, fenced: boolean): void {
    const slot = this.slots.get(partition);
    if (!slot || slot.cancelled || this.closing) return;
    this.slots.delete(partition);
    const delayMs = fenced ? FENCED_RETAKE_MS : 0;
    this.options.observer?.partitionStartFailed?.({ topic: this.options.topic, partition, error, delayMs });
    if (!fenced) {
      this.takeUp(partition);
      return;
    }
    const retake = setTimeout(() => {
      this.retakes.delete(retake);
      if (this.assigned.has(partition)) this.takeUp(partition);
    }, delayMs);
    this.retakes.add(retake);
  }

  private async giveUp(partition: number, reason: string, drain = true): Promise<void> {
    const slot = this.slots.get(partition);
    if (!slot) return;
    this.slots.delete(partition);
    slot.cancelled = true;
    await slot.starting;
    await slot.worker?.stop(reason, drain);
  }

  /**
   * Stops fetching, lets the work in progress finish and commits it, drops pending retries (the
   * next owner redelivers them), then leaves the group. Idempotent.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.running = false;
      this.room.cancelWaiters();
      for (const retake of this.retakes) clearTimeout(retake);
      this.retakes.clear();
      await Promise.all([...this.slots.keys()].map((partition) => this.giveUp(partition, 'consumer closed')));
      await this.consumer.disconnect();
      await this.processedIds.stop();
      await (await this.admin?.catch(() => undefined))?.disconnect();
    })();
    return this.closing;
  }
}

/**
 * Tells `worker` what a fetch held, from `first` to `last`. A fetch with nothing at or after the
 * offset it asked for (first: null) tells nothing: kafkajs's lastOffset is then the high
 * watermark's, which may lie inside a transaction still open.
 */
function fetchedThrough(worker: PartitionWorker<unknown>, first: string | null, last: string): void {
  if (first !== null) worker.fetchedThrough(Number(first), Number(last));
}
