import type { Consumer, Kafka } from 'kafkajs';
import { deadLetterTopic, processedIdsTopic } from '../topics/topic-names.js';
import { DEFAULT_BACKOFF, type BackoffPolicy } from './backoff.js';
import { consumedRecord } from './consumed-record.js';
import type { ConsumerObserver } from './consumer-events.js';
import type { MessageProcessor } from './message-processor.js';
import { PartitionWorker } from './partition-worker.js';
import { ProcessedIds } from './processed-ids.js';

export interface ExactlyOnceConsumerOptions<T> {
  kafka: Kafka;
  groupId: string;
  topic: string;
  /** Names this process in dead-letter headers and transactional ids' logs. */
  instanceId: string;
  processor: MessageProcessor<T>;
  /** Retries when a message names none (failure_handling_strategy.retry_count). @default 3 */
  defaultRetryLimit?: number;
  /** @default 200 ms doubling to 30 s */
  backoff?: BackoffPolicy;
  /** Partitions processed at the same time by this instance. @default 16 */
  partitionsConsumedConcurrently?: number;
  /** @default 30 s */
  sessionTimeoutMs?: number;
  /** How long processed ids are remembered; match the `.processed` topic's retention. @default 7 days */
  dedupeRetentionMs?: number;
  /** How long a new partition owner may take to read the processed ids. @default 60 s */
  catchUpTimeoutMs?: number;
  observer?: ConsumerObserver;
  now?: () => Date;
}

/**
 * Consumes one topic with exactly-once effect per message_id: each message's outputs, its
 * processed-id marker and the consumer offset are committed in one Kafka transaction by a
 * transactional producer per source partition (its transactional.id fences a previous owner of
 * the partition, so a zombie cannot commit after a rebalance). Transient failures are retried with
 * backoff without holding up other tasks; permanent ones go to `<topic>.dlq`.
 */
export class ExactlyOnceConsumer<T> {
  private readonly consumer: Consumer;
  private readonly processedIds: ProcessedIds;
  private readonly workers = new Map<number, Promise<PartitionWorker<T>>>();
  private closing: Promise<void> | undefined;
  private running = false;

  constructor(private readonly options: ExactlyOnceConsumerOptions<T>) {
    this.consumer = options.kafka.consumer({
      groupId: options.groupId,
      sessionTimeout: options.sessionTimeoutMs ?? 30_000,
      maxWaitTimeInMs: 250,
      // Read only committed records: a transaction aborted upstream must not be processed.
      readUncommitted: false,
    });
    this.processedIds = new ProcessedIds(
      options.kafka,
      processedIdsTopic(options.topic),
      `${options.groupId}.processed-reader.${options.instanceId}`,
      options.dedupeRetentionMs,
    );
  }

  /** True once the consumer has joined its group and runs. */
  get isRunning(): boolean {
    return this.running;
  }

  async start(): Promise<void> {
    await this.processedIds.start();
    await this.consumer.connect();
    this.consumer.on(this.consumer.events.GROUP_JOIN, ({ payload }) => {
      // Also after kafkajs restarted the consumer following a crash: it is taking work again.
      this.running = true;
      const assigned = new Set(payload.memberAssignment[this.options.topic] ?? []);
      for (const partition of [...this.workers.keys()]) {
        if (!assigned.has(partition)) void this.dropWorker(partition, 'partition revoked in a rebalance');
      }
    });
    this.consumer.on(this.consumer.events.CRASH, () => {
      this.running = false;
    });
    await this.consumer.subscribe({ topic: this.options.topic, fromBeginning: true });
    await this.consumer.run({
      autoCommit: false,
      partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? 16,
      eachMessage: async ({ topic, partition, message }) => {
        const worker = await this.worker(partition);
        await worker.receive(consumedRecord(topic, partition, message));
      },
    });
    this.running = true;
  }

  private worker(partition: number): Promise<PartitionWorker<T>> {
    let worker = this.workers.get(partition);
    if (!worker) {
      worker = this.createWorker(partition);
      this.workers.set(partition, worker);
      worker.catch(() => this.workers.delete(partition));
    }
    return worker.then(async (existing) => {
      if (!existing.isStopped) return existing;
      this.workers.delete(partition);
      return this.worker(partition);
    });
  }

  private async createWorker(partition: number): Promise<PartitionWorker<T>> {
    const { kafka, groupId, topic } = this.options;
    const started = performance.now();
    const producer = kafka.producer({
      transactionalId: `${groupId}.${topic}.${partition}`,
      idempotent: true,
      maxInFlightRequests: 1,
      // A transaction right after another's commit meets CONCURRENT_TRANSACTIONS until the broker
      // has written the commit markers, a few ms. kafkajs's default first backoff of 300 ms made
      // every transaction take ~220 ms here; the Java client backs off 20 ms for the same reason.
      retry: { initialRetryTime: 5, maxRetryTime: 1_000, retries: Number.MAX_SAFE_INTEGER },
    });
    await producer.connect();
    await this.processedIds.catchUp(producer, partition, this.options.catchUpTimeoutMs ?? 60_000);
    this.options.observer?.partitionReady?.({ topic, partition, catchUpMs: performance.now() - started });
    return new PartitionWorker<T>({
      topic,
      partition,
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
    });
  }

  private async dropWorker(partition: number, reason: string): Promise<void> {
    const worker = this.workers.get(partition);
    this.workers.delete(partition);
    await (await worker?.catch(() => undefined))?.stop(reason);
  }

  /** Stops fetching, lets work in progress finish, drops pending retries, disconnects. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.running = false;
      await this.consumer.disconnect();
      await Promise.all([...this.workers.keys()].map((partition) => this.dropWorker(partition, 'consumer closed')));
      await this.processedIds.stop();
    })();
    return this.closing;
  }
}
