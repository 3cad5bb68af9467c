import { randomUUID } from 'node:crypto';
import type { Consumer, Producer } from 'kafkajs';
import { BatonError } from '@baton/errors';
import { DEFAULT_DEDUPE_RETENTION_MS } from '../create-topics.js';
import { LONG_POLL_MAX_WAIT_MS } from '../reading/long-poll.js';
import { ExpiringIdSet } from './expiring-id-set.js';
import { markedIds, type MessageResult } from './id-markers.js';
import { READER_GROUP_TIMING, readerGroupId as uniqueReaderGroupId } from '../reading/reader-group.js';
import { kafkajsClient, type KafkaClient } from '../kafka-client.js';

/** The key of barrier records, which tell a new partition owner it has read every id before it. */
const BARRIER_KEY = '__baton.barrier__';

/**
 * The durable record of processed message ids, kept in a topic partitioned like the source topic.
 * A transaction's marker record (id-markers.ts) is written in the transaction with its messages'
 * outputs and offset, so an id is recorded exactly when the message's effects are. Every instance reads the whole topic
 * into memory; the owner of a partition writes a barrier through its (fencing) transactional
 * producer and waits to read it back, after which it knows every id committed before.
 *
 * A partition is fetched only while a barrier written to it has not been read back. The ids
 * committed after it are the owner's own, which it adds as it commits them; those of a later owner
 * matter only when this instance takes the partition up again, and then its new barrier is read
 * after them, from where reading stopped. So an idle instance sends this reader no fetch at all,
 * where it used to long-poll every partition, and with every partition paused its consumer sleeps
 * until one is resumed (kafkajs-fixes/consumer-fetch-waits.ts): no timer wakes it either. Before
 * that fix it looked for resumed partitions four times a second, since a take-up (a rebalance, a
 * start, a failed transaction) waited for the next look.
 */
export class ProcessedIds {
  private readonly ids = new Map<number, ExpiringIdSet>();
  /** Dead-lettered ids: skipped when redelivered, processed again only when an operator replays them. */
  private readonly deadLettered = new Map<number, ExpiringIdSet>();
  private readonly barriers = new Map<string, () => void>();
  /** Partition to the number of its barriers not read back yet: the partitions fetched. */
  private readonly reading = new Map<number, number>();
  private readonly consumer: Consumer;
  private started = false;

  constructor(
    kafka: KafkaClient,
    readonly topic: string,
    readerGroupId: string,
    /** As long as the topic keeps markers; older ids are forgotten. */
    private readonly retentionMs: number = DEFAULT_DEDUPE_RETENTION_MS,
    /** Ids remembered per partition, processed and dead-lettered each, at most; the oldest go first. */
    private readonly maxIdsPerPartition = Number.POSITIVE_INFINITY,
  ) {
    // A group of its own per instance, which never commits, so every start reads from the beginning.
    this.consumer = kafkajsClient(kafka).consumer({
      groupId: uniqueReaderGroupId(readerGroupId),
      // Long: a partition taken up while others are read is fetched at once all the same, since
      // their fetches wait briefly while it is paused (kafkajs-fixes/consumer-fetch-waits.ts).
      maxWaitTimeInMs: LONG_POLL_MAX_WAIT_MS,
      ...READER_GROUP_TIMING,
    });
  }

  async start(): Promise<void> {
    await this.consumer.connect();
    // Before the first fetch of each generation: a consumer kafkajs restarts after a crash has
    // forgotten what was paused. Partition by partition: kafkajs's pause of a whole topic is undone
    // by the next pause of a single partition.
    this.consumer.on(this.consumer.events.GROUP_JOIN, ({ payload }) => {
      const assigned = payload.memberAssignment[this.topic] ?? [];
      this.consumer.pause([{ topic: this.topic, partitions: assigned.filter((p) => !this.reading.has(p)) }]);
      this.consumer.resume([{ topic: this.topic, partitions: [...this.reading.keys()] }]);
    });
    await this.consumer.subscribe({ topic: this.topic, fromBeginning: true });
    await this.consumer.run({
      autoCommit: false,
      eachMessage: async ({ partition, message }) => {
        const key = message.key?.toString();
        if (key === undefined) return;
        if (key === BARRIER_KEY) {
          const barrier = message.value?.toString() ?? '';
          this.barriers.get(barrier)?.();
          this.barriers.delete(barrier);
          return;
        }
        const at = Number(message.timestamp);
        for (const { messageId, result } of markedIds(key, message.value)) this.add(partition, messageId, result, at);
      },
    });
    this.started = true;
  }

  has(partition: number, messageId: string): boolean {
    return this.ids.get(partition)?.has(messageId) ?? false;
  }

  wasDeadLettered(partition: number, messageId: string): boolean {
    return this.deadLettered.get(partition)?.has(messageId) ?? false;
  }

  add(partition: number, messageId: string, result: MessageResult = 'processed', atMs: number = Date.now()): void {
    if (result === 'processed') {
      this.setOf(this.ids, partition).add(messageId, atMs);
      this.deadLettered.get(partition)?.delete(messageId);
    } else {
      this.setOf(this.deadLettered, partition).add(messageId, atMs);
    }
  }

  private setOf(sets: Map<number, ExpiringIdSet>, partition: number): ExpiringIdSet {
    let set = sets.get(partition);
    if (!set) sets.set(partition, (set = new ExpiringIdSet(this.retentionMs, this.maxIdsPerPartition)));
    return set;
  }

  /**
   * Writes a barrier into `partition` with the owner's transactional producer and waits until this
   * reader has read it: from then on `has` knows every id committed to that partition before.
   */
  async catchUp(producer: Producer, partition: number, timeoutMs: number): Promise<void> {
    if (!this.started) throw new Error('ProcessedIds.start() must be called first');
    const barrier = randomUUID();
    const seen = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.barriers.delete(barrier);
        reject(
          new BatonError(
            'KAFKA_UNAVAILABLE',
            `processed ids of ${this.topic}[${partition}] not read within ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
      this.barriers.set(barrier, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    // Observed here so a timeout while the transaction is still running is not an unhandled rejection.
    seen.catch(() => undefined);
    this.startReading(partition);
    try {
      const transaction = await producer.transaction();
      try {
        await transaction.send({ topic: this.topic, messages: [{ key: BARRIER_KEY, value: barrier, partition }] });
        await transaction.commit();
      } catch (error) {
        await transaction.abort().catch(() => undefined);
        this.barriers.delete(barrier);
        throw error;
      }
      await seen;
    } finally {
      this.stopReading(partition);
    }
  }

  private startReading(partition: number): void {
    this.reading.set(partition, (this.reading.get(partition) ?? 0) + 1);
    this.consumer.resume([{ topic: this.topic, partitions: [partition] }]);
  }

  /**
   * Records of the partition already fetched are still delivered, or fetched again on resume when
   * kafkajs drops them (it stops a batch at a paused partition): either way none is skipped.
   */
  private stopReading(partition: number): void {
    const left = (this.reading.get(partition) ?? 1) - 1;
    if (left > 0) {
      this.reading.set(partition, left);
      return;
    }
    this.reading.delete(partition);
    this.consumer.pause([{ topic: this.topic, partitions: [partition] }]);
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
  }
}
