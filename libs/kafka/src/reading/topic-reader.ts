import type { Consumer, Kafka } from 'kafkajs';
import { BatonError } from '@baton/errors';
import { LONG_POLL_MAX_WAIT_MS } from './long-poll.js';
import { READER_HEARTBEAT_INTERVAL_MS, readerGroupId } from './reader-group.js';
import { consumedRecord, type ConsumedRecord } from '../consumer/consumed-record.js';
import { fetchEndOffsets } from '../topics/end-offsets.js';

export interface TopicReaderOptions {
  kafka: Kafka;
  /**
   * A group of the reader's own, which never commits: every start reads the topics from the
   * beginning (or the end, see `fromBeginning`). Give each process its own, so each instance sees
   * every partition.
   */
  groupId: string;
  topics: string[];
  /**
   * Where a start reads from: the first record (the default), or only records that arrive after
   * the reader joined (for tailing).
   */
  fromBeginning?: boolean;
  /**
   * When set, `start` resolves only once every partition of the topics has been read up to the end
   * offset it had when `start` was called (a view that must be complete before it is used), and
   * rejects with KAFKA_UNAVAILABLE after `timeoutMs` (default 60 s). Only with `fromBeginning`.
   */
  catchUp?: { timeoutMs?: number };
  onRecord(record: ConsumedRecord): void | Promise<void>;
}

/**
 * Reads whole topics, from the first record on and then as records arrive, committed records
 * only. For views kept in memory (timelines, dead letters, the audit trail, the agent registry)
 * and for tailing.
 */
export class TopicReader {
  private readonly consumer: Consumer;
  private running = false;

  constructor(private readonly options: TopicReaderOptions) {
    this.consumer = options.kafka.consumer({
      groupId: readerGroupId(options.groupId),
      maxWaitTimeInMs: LONG_POLL_MAX_WAIT_MS,
      heartbeatInterval: READER_HEARTBEAT_INTERVAL_MS,
      readUncommitted: false,
    });
    this.consumer.on(this.consumer.events.GROUP_JOIN, () => {
      this.running = true;
    });
    this.consumer.on(this.consumer.events.CRASH, () => {
      this.running = false;
    });
  }

  get isRunning(): boolean {
    return this.running;
  }

  async start(): Promise<void> {
    const caughtUp = this.options.catchUp === undefined ? undefined : this.caughtUp(await this.endOffsets());
    // Observed here so a timeout while connecting is not an unhandled rejection.
    caughtUp?.catch(() => undefined);
    await this.consumer.connect();
    if (this.options.topics.length > 0) {
      await this.consumer.subscribe({ topics: this.options.topics, fromBeginning: this.options.fromBeginning ?? true });
    }
    await this.consumer.run({
      autoCommit: false,
      eachMessage: async ({ topic, partition, message }) => {
        await this.options.onRecord(consumedRecord(topic, partition, message));
      },
    });
    this.running = true;
    await caughtUp;
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.consumer.disconnect();
  }

  /** `<topic>:<partition>` to the end offset of each partition that has records, when called. */
  private async endOffsets(): Promise<Map<string, bigint>> {
    const ends = new Map<string, bigint>();
    for (const topic of this.options.topics) {
      for (const [partition, end] of await fetchEndOffsets(this.options.kafka, topic)) {
        ends.set(`${topic}:${partition}`, end);
      }
    }
    return ends;
  }

  /**
   * Resolves when every partition has been read to its end offset. The position comes from the
   * consumer's batch events rather than the last record seen: a partition written by transactions
   * ends in a commit marker, which takes an offset but is never delivered as a record.
   */
  private caughtUp(ends: Map<string, bigint>): Promise<void> {
    const timeoutMs = this.options.catchUp?.timeoutMs ?? 60_000;
    return new Promise((resolve, reject) => {
      if (ends.size === 0) {
        resolve();
        return;
      }
      const timer = setTimeout(() => {
        removeListener();
        reject(
          new BatonError(
            'KAFKA_UNAVAILABLE',
            `${this.options.topics.join(', ')} not read to the end within ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
      const removeListener = this.consumer.on(this.consumer.events.END_BATCH_PROCESS, ({ payload }) => {
        const key = `${payload.topic}:${payload.partition}`;
        const end = ends.get(key);
        if (end === undefined || BigInt(payload.lastOffset) + 1n < end) return;
        ends.delete(key);
        if (ends.size > 0) return;
        clearTimeout(timer);
        removeListener();
        resolve();
      });
    });
  }
}
