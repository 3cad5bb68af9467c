import { QUIET_TOPIC_MAX_WAIT_MS, TopicLister, TopicReader, type KafkaClient } from '@baton/kafka';
import type { Logger } from '@baton/runtime';
import type { DeadLetterStore } from './dead-letter-store.js';

/** The DLQ topics of one installation: `<prefix>.<anything>.dlq`. */
export function isDeadLetterTopic(prefix: string, topic: string): boolean {
  return topic.startsWith(`${prefix}.`) && topic.endsWith('.dlq');
}

export interface DeadLetterReaderOptions {
  kafka: KafkaClient;
  prefix: string;
  /** Prefix of the reader's own groups; each reader adds a number. */
  groupId: string;
  store: DeadLetterStore;
  logger: Logger;
  /** How often to look for DLQ topics created since. @default 5 s */
  discoveryIntervalMs?: number;
}

/**
 * Reads every DLQ topic of the installation into the store. Services create their DLQ when they
 * first start, which may be after the gateway: new topics are looked for every few seconds. One
 * reader reads them all, since every reader is a fetch loop of its own, idle or not (`npm start`
 * brings the DLQs up in half a dozen batches): when new ones turn up, a new reader of every DLQ
 * topic starts from their beginning, then the previous one stops. The store skips what it has
 * already read, so nothing is missed or counted twice in between. Topics are listed through one
 * TopicLister, connected while the reader runs: a client per look would open a connection (and
 * ask for the broker's API versions and the metadata twice) every few seconds.
 */
export class DeadLetterReader {
  private reader: TopicReader | undefined;
  private readonly topics: TopicLister;
  private readers = 0;
  private readonly known = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private discovering: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly options: DeadLetterReaderOptions) {
    this.topics = new TopicLister(options.kafka);
  }

  get isRunning(): boolean {
    return this.reader?.isRunning ?? true;
  }

  async start(): Promise<void> {
    await this.topics.connect();
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
    const found = await this.topics.list((topic) => isDeadLetterTopic(prefix, topic) && !this.known.has(topic));
    if (found.length === 0 || this.stopped) return;
    for (const topic of found) store.know(topic);
    const next = new TopicReader({
      kafka,
      groupId: `${this.options.groupId}.${this.readers++}`,
      topics: [...this.known, ...found].sort(),
      // Written rarely, read across every partition of every DLQ.
      maxWaitMs: QUIET_TOPIC_MAX_WAIT_MS,
      onRecord: (record) => store.add(record),
    });
    try {
      await next.start();
    } catch (error) {
      // Looked for again at the next discovery.
      await next.stop().catch(() => undefined);
      throw error;
    }
    for (const topic of found) this.known.add(topic);
    const previous = this.reader;
    this.reader = next;
    await previous?.stop();
    this.options.logger.info({ event: 'dlq.reading', topics: found }, 'reading dead-letter topics');
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.discovering;
    await Promise.all([this.reader?.stop(), this.topics.disconnect()]);
  }
}
