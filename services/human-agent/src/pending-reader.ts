import { TopicReader, type KafkaClient } from '@baton/kafka';
import type { Logger } from '@baton/runtime';
import { parsePendingEntry } from './pending-record.js';
import type { PendingTasks } from './pending-tasks.js';

export interface PendingReaderOptions {
  kafka: KafkaClient;
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
 * resolves once it has read up to the end offsets the topic had when it was called (rejecting with
 * KAFKA_UNAVAILABLE after the catch-up timeout), so the list is complete before the agent takes
 * work or answers HTTP; it then goes on reading.
 */
export class PendingReader {
  private readonly reader: TopicReader;
  private stopping: Promise<void> | undefined;

  constructor(private readonly options: PendingReaderOptions) {
    // The reader's group never commits, so every start reads the topic from its beginning.
    this.reader = new TopicReader({
      kafka: options.kafka,
      groupId: options.groupId,
      topics: [options.topic],
      catchUp: { timeoutMs: options.catchUpTimeoutMs ?? 60_000 },
      onRecord: (record) => this.apply(record.key, record.value),
    });
  }

  start(): Promise<void> {
    return this.reader.start();
  }

  stop(): Promise<void> {
    this.stopping ??= this.reader.stop();
    return this.stopping;
  }

  private apply(taskId: string | null, value: Buffer | null): void {
    if (taskId === null) return;
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
}
