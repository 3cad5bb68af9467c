import { TopicLister, TopicReader, backoffDelayMs, type BackoffPolicy, type KafkaClient } from '@baton/kafka';
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
  /** How often to look for DLQ topics created since, at first and while the dead letters are read. @default 5 s */
  discoveryIntervalMs?: number;
  /** How seldom at most, once looks in a row found none and nothing reads the dead letters. @default 60 s */
  quietDiscoveryIntervalMs?: number;
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
 *
 * Each look asks the cluster for every topic it has: two metadata requests naming all of them, for
 * the broker to build and the gateway to decode. So the looks come every few seconds at first, when
 * services create their DLQs, then less and less often while none turns up, down to once a minute;
 * whoever reads the dead letters (the API, the console) brings them back to every few seconds
 * (`store.onRead`), so a DLQ created meanwhile shows up as fast as before where anyone looks.
 * The idle `npm start` fleet's gateway sent 24 such requests a minute before.
 */
export class DeadLetterReader {
  private reader: TopicReader | undefined;
  private readonly topics: TopicLister;
  private readers = 0;
  private readonly known = new Set<string>();
  private readonly pace: BackoffPolicy;
  private timer: NodeJS.Timeout | undefined;
  /** When the next look is due, and when the last one began (Date.now()). */
  private nextAt = 0;
  private lastAt = 0;
  /** Looks in a row that found no new DLQ topic. */
  private idleLooks = 0;
  private discovering: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly options: DeadLetterReaderOptions) {
    this.topics = new TopicLister(options.kafka);
    const initialDelayMs = options.discoveryIntervalMs ?? 5_000;
    this.pace = { initialDelayMs, maxDelayMs: options.quietDiscoveryIntervalMs ?? 60_000, multiplier: 2 };
    options.store.onRead(() => this.lookSoon());
  }

  get isRunning(): boolean {
    return this.reader?.isRunning ?? true;
  }

  async start(): Promise<void> {
    await this.topics.connect();
    this.lastAt = Date.now();
    await this.discover();
    this.schedule(this.pace.initialDelayMs);
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.nextAt = Date.now() + delayMs;
    this.timer = setTimeout(() => this.look(), delayMs);
  }

  private look(): void {
    this.discovering = this.discovering.then(async () => {
      this.lastAt = Date.now();
      try {
        this.idleLooks = (await this.discover()) ? 0 : this.idleLooks + 1;
      } catch (error) {
        this.options.logger.warn({ event: 'dlq.discovery_failed', err: error }, 'could not list DLQ topics');
      }
      // The first interval in full, then longer ones, each in the upper half of its range (jitter).
      if (!this.stopped) {
        this.schedule(this.idleLooks === 0 ? this.pace.initialDelayMs : backoffDelayMs(this.pace, this.idleLooks + 1));
      }
    });
  }

  /** The dead letters were read: the next look comes at most the first interval after the last one. */
  private lookSoon(): void {
    if (this.stopped || this.nextAt === 0) return;
    this.idleLooks = 0;
    const dueAt = this.lastAt + this.pace.initialDelayMs;
    if (this.nextAt > dueAt) this.schedule(Math.max(0, dueAt - Date.now()));
  }

  /** Starts reading the DLQ topics created since the last look; true when there were any. */
  private async discover(): Promise<boolean> {
    const { kafka, prefix, store } = this.options;
    const found = await this.topics.list((topic) => isDeadLetterTopic(prefix, topic) && !this.known.has(topic));
    if (found.length === 0 || this.stopped) return false;
    for (const topic of found) store.know(topic);
    const next = new TopicReader({
      kafka,
      groupId: `${this.options.groupId}.${this.readers++}`,
      topics: [...this.known, ...found].sort(),
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
    return true;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.discovering;
    await Promise.all([this.reader?.stop(), this.topics.disconnect()]);
  }
}
