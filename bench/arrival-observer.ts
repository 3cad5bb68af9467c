import { randomUUID } from 'node:crypto';
import type { Consumer, Kafka } from '@baton/kafka';
import type { EventsCodec } from '@baton/wire';

export interface ArrivalObserverOptions {
  kafka: Kafka;
  /** Topics of handoff-shaped records, told apart by their `ce_id` header (the message_id). */
  recordTopics: string[];
  /** The events topic: a COMPLETED outcome counts as the arrival of the handoff it names. */
  eventsTopic: string;
  events: EventsCodec;
  /** Events of tasks whose key starts with this are skipped undecoded (another observer reads them). */
  skipEventKeyPrefix?: string;
}

/**
 * One consumer that notes when each message first arrives on each topic it reads, by message_id,
 * from the beginning of the topics and committed records only (what the next consumer sees).
 */
export class ArrivalObserver {
  private readonly seen = new Map<string, Map<string, number>>();
  private readonly consumer: Consumer;
  private undecodable = 0;

  constructor(private readonly options: ArrivalObserverOptions) {
    for (const topic of [...options.recordTopics, options.eventsTopic]) this.seen.set(topic, new Map());
    this.consumer = options.kafka.consumer({ groupId: `bench-observer-${randomUUID()}`, maxWaitTimeInMs: 50 });
  }

  /** Resolves once the observer has joined its group and reads, so nothing is timed late for the join. */
  async start(): Promise<void> {
    const { eventsTopic, events, skipEventKeyPrefix } = this.options;
    const joined = new Promise<void>((resolve) => this.consumer.on(this.consumer.events.GROUP_JOIN, () => resolve()));
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [...this.seen.keys()], fromBeginning: true });
    await this.consumer.run({
      partitionsConsumedConcurrently: 8,
      eachMessage: async ({ topic, message }) => {
        const now = Date.now();
        const arrivals = this.seen.get(topic);
        if (arrivals === undefined || message.value === null) return;
        if (topic !== eventsTopic) {
          const id = message.headers?.ce_id?.toString();
          if (id !== undefined && !arrivals.has(id)) arrivals.set(id, now);
          return;
        }
        if (skipEventKeyPrefix !== undefined && message.key?.toString().startsWith(skipEventKeyPrefix)) return;
        try {
          const event = await events.decode(message.value);
          if (event.kind === 'outcome' && event.value.outcome === 'COMPLETED' && !arrivals.has(event.value.message_id))
            arrivals.set(event.value.message_id, now);
        } catch {
          this.undecodable += 1;
        }
      },
    });
    await joined;
  }

  /** When each message_id first arrived on `topic`. */
  arrivals(topic: string): ReadonlyMap<string, number> {
    const arrivals = this.seen.get(topic);
    if (arrivals === undefined) throw new Error(`the observer does not read ${topic}`);
    return arrivals;
  }

  /** How many of `ids` have arrived on `topic`. */
  countOf(topic: string, ids: Iterable<string>): number {
    const arrivals = this.arrivals(topic);
    let count = 0;
    for (const id of ids) if (arrivals.has(id)) count += 1;
    return count;
  }

  /** Events records that did not decode: none is expected. */
  get undecodableEvents(): number {
    return this.undecodable;
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
  }
}
