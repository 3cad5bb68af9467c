import type { Consumer, Kafka } from 'kafkajs';
import { consumedRecord, type ConsumedRecord } from '../consumer/consumed-record.js';

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
  onRecord(record: ConsumedRecord): void | Promise<void>;
}

/**
 * Reads whole topics, from the first record on and then as records arrive, committed records
 * only. For views kept in memory (timelines, dead letters, the audit trail) and for tailing.
 */
export class TopicReader {
  private readonly consumer: Consumer;
  private running = false;

  constructor(private readonly options: TopicReaderOptions) {
    this.consumer = options.kafka.consumer({ groupId: options.groupId, maxWaitTimeInMs: 250, readUncommitted: false });
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
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.consumer.disconnect();
  }
}
