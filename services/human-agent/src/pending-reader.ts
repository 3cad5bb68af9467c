import { BatonError } from '@baton/errors';
import {
  fetchEndOffsets,
  LONG_POLL_MAX_WAIT_MS,
  READER_HEARTBEAT_INTERVAL_MS,
  type Consumer,
  type Kafka,
} from '@baton/kafka';
import type { Logger } from '@baton/runtime';
import { parsePendingEntry } from './pending-record.js';
import type { PendingTasks } from './pending-tasks.js';

export interface PendingReaderOptions {
  kafka: Kafka;
  topic: string;
  /** A group of this instance's own: each instance reads every partition. */
  groupId: string;
  tasks: PendingTasks;
  logger: Logger;
  /** @default 60 s */
  catchUpTimeoutMs?: number;
}

/**
 * Keeps `tasks` in step with the pending topic. `start` reads the topic from its beginning and
 * resolves once it has read up to the end offsets the topic had when it was called, so the list
 * is complete before the agent takes work or answers HTTP; it then goes on reading.
 */
export class PendingReader {
  private readonly consumer: Consumer;
  private stopping: Promise<void> | undefined;

  constructor(private readonly options: PendingReaderOptions) {
    // The group never commits, so every start reads the topic from its beginning.
    this.consumer = options.kafka.consumer({
      groupId: options.groupId,
      maxWaitTimeInMs: LONG_POLL_MAX_WAIT_MS,
      heartbeatInterval: READER_HEARTBEAT_INTERVAL_MS,
    });
  }

  async start(): Promise<void> {
    const caughtUp = this.caughtUp(await this.endOffsets());
    // Observed here so a timeout while connecting is not an unhandled rejection.
    caughtUp.catch(() => undefined);
    await this.consumer.connect();
    await this.consumer.subscribe({ topic: this.options.topic, fromBeginning: true });
    await this.consumer.run({
      autoCommit: false,
      eachMessage: async ({ message }) => this.apply(message.key?.toString(), message.value),
    });
    await caughtUp;
  }

  stop(): Promise<void> {
    this.stopping ??= this.consumer.disconnect();
    return this.stopping;
  }

  private apply(taskId: string | undefined, value: Buffer | null): void {
    if (taskId === undefined) return;
    if (value === null) {
      this.options.tasks.apply(taskId, null);
      return;
    }
    try {
      this.options.tasks.apply(taskId, parsePendingEntry(value));
    } catch (error) {
      // The newest record of the task is unreadable, so the older one it replaced is no longer pending either.
      this.options.tasks.apply(taskId, null);
      this.options.logger.warn(
        { event: 'pending.unreadable', task_id: taskId, err: error },
        'unreadable entry skipped',
      );
    }
  }

  /** The end offset of each partition that has records, when called. */
  private endOffsets(): Promise<Map<number, bigint>> {
    return fetchEndOffsets(this.options.kafka, this.options.topic);
  }

  /**
   * Resolves when every partition has been read to its end offset. The position comes from the
   * consumer's batch events rather than the last record seen: a partition written by transactions
   * ends in a commit marker, which takes an offset but is never delivered as a record.
   */
  private caughtUp(ends: Map<number, bigint>): Promise<void> {
    const timeoutMs = this.options.catchUpTimeoutMs ?? 60_000;
    return new Promise((resolve, reject) => {
      if (ends.size === 0) {
        resolve();
        return;
      }
      const timer = setTimeout(() => {
        removeListener();
        reject(
          new BatonError('KAFKA_UNAVAILABLE', `pending tasks of ${this.options.topic} not read within ${timeoutMs} ms`),
        );
      }, timeoutMs);
      const removeListener = this.consumer.on(this.consumer.events.END_BATCH_PROCESS, ({ payload }) => {
        const end = ends.get(payload.partition);
        if (end === undefined || BigInt(payload.lastOffset) + 1n < end) return;
        ends.delete(payload.partition);
        if (ends.size > 0) return;
        clearTimeout(timer);
        removeListener();
        resolve();
      });
    });
  }
}
