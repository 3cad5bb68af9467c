import { listTopicNames, TopicReader, type Kafka } from '@baton/kafka';
import type { Logger } from '@baton/runtime';
import type { DeadLetterStore } from './dead-letter-store.js';

/** The DLQ topics of one installation: `<prefix>.<anything>.dlq`. */
export function isDeadLetterTopic(prefix: string, topic: string): boolean {
  return topic.startsWith(`${prefix}.`) && topic.endsWith('.dlq');
}

export interface DeadLetterReaderOptions {
  kafka: Kafka;
  prefix: string;
  /** Prefix of the readers' own groups; each reader adds a number. */
  groupId: string;
  store: DeadLetterStore;
  logger: Logger;
  /** How often to look for DLQ topics created since. @default 5 s */
  discoveryIntervalMs?: number;
}

/**
 * Reads every DLQ topic of the installation into the store. Services create their DLQ when they
 * first start, which may be after the gateway: new topics are looked for every few seconds and
 * each batch found gets a reader of its own, so the readers already running never rebalance.
 */
export class DeadLetterReader {
  private readonly readers: TopicReader[] = [];
  private readonly known = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private discovering: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly options: DeadLetterReaderOptions) {}

  get isRunning(): boolean {
    return this.readers.every((reader) => reader.isRunning);
  }

  async start(): Promise<void> {
    await this.discover();
    this.timer = setInterval(() => {
      this.discovering = this.discovering.then(() =>
        this.discover().catch((error: unknown) =>
          this.options.logger.warn({ event: 'dlq.discovery_failed', err: error }, 'could not list DLQ topics'),
        ),
      );
    }, this.options.discoveryIntervalMs ?? 5_000);
  }

  private async discover(): Promise<void> {
    const { kafka, prefix, store } = this.options;
    const found = await listTopicNames(kafka, (topic) => isDeadLetterTopic(prefix, topic) && !this.known.has(topic));
    if (found.length === 0 || this.stopped) return;
    for (const topic of found) {
      this.known.add(topic);
      store.know(topic);
    }
    const reader = new TopicReader({
      kafka,
      groupId: `${this.options.groupId}.${this.readers.length}`,
      topics: found,
      onRecord: (record) => store.add(record),
    });
    this.readers.push(reader);
    await reader.start();
    this.options.logger.info({ event: 'dlq.reading', topics: found }, 'reading dead-letter topics');
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.discovering;
    await Promise.all(this.readers.map((reader) => reader.stop()));
  }
}
