import { randomUUID } from 'node:crypto';
import { recordHeaderOf } from '@baton/kafka';
import { rawKafkajs, type Consumer, type KafkaMessage } from './raw-kafkajs.js';
import { OUTCOME_EVENT_TYPE_PREFIX } from '@baton/runtime';
import type { SchemaRegistryClient } from '@baton/wire';
import { OutcomeMessageIds } from './outcome-message-ids.js';

/** The only events the observer decodes: every other event (ROUTED, lifecycle) is told apart by its header. */
const COMPLETED_TYPE = `${OUTCOME_EVENT_TYPE_PREFIX}COMPLETED`;

export interface ArrivalObserverOptions {
  brokers: string[];
  /** Topics of handoff-shaped records, told apart by their `ce_id` header (the message_id). */
  recordTopics: string[];
  /** The events topic: a COMPLETED outcome counts as the arrival of the handoff it names. */
  eventsTopic: string;
  /** Where the outcome events' writer schemas are found. */
  registry: SchemaRegistryClient;
  /** Events of tasks whose key starts with this are skipped undecoded (another observer reads them). */
  skipEventKeyPrefix?: string;
}

/** The first arrival of a message counts. */
function noteArrival(arrivals: Map<string, number>, messageId: string, now: number): void {
  if (!arrivals.has(messageId)) arrivals.set(messageId, now);
}

/**
 * One consumer that notes when each message first arrives on each topic it reads, by message_id,
 * from the beginning of the topics and committed records only (what the next consumer sees).
 */
export class ArrivalObserver {
  private readonly seen = new Map<string, Map<string, number>>();
  private readonly consumer: Consumer;
  private readonly messageIds: OutcomeMessageIds;
  private undecodable = 0;

  constructor(private readonly options: ArrivalObserverOptions) {
    for (const topic of [...options.recordTopics, options.eventsTopic]) this.seen.set(topic, new Map());
    this.messageIds = new OutcomeMessageIds(options.registry);
    const groupId = `bench-observer-${randomUUID()}`;
    this.consumer = rawKafkajs(options.brokers, groupId).consumer({ groupId, maxWaitTimeInMs: 50 });
  }

  /** Resolves once the observer has joined its group and reads, so nothing is timed late for the join. */
  async start(): Promise<void> {
    const { eventsTopic } = this.options;
    const joined = new Promise<void>((resolve) => this.consumer.on(this.consumer.events.GROUP_JOIN, () => resolve()));
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [...this.seen.keys()], fromBeginning: true });
    // eachBatch, one arrival time per batch, and only the header it needs read from each record:
    // the observer shares the machine with what it measures, and reads three records a handoff on
    // Baton's full path (the inbox, ROUTED, COMPLETED) against two on a relay's.
    await this.consumer.run({
      partitionsConsumedConcurrently: 8,
      eachBatch: async ({ batch }) => {
        const now = Date.now();
        const arrivals = this.seen.get(batch.topic);
        if (arrivals === undefined) return;
        for (const message of batch.messages) {
          if (message.value === null) continue;
          if (batch.topic === eventsTopic) {
            const noted = this.noteCompleted(message, arrivals, now);
            if (noted !== undefined) await noted;
            continue;
          }
          const id = recordHeaderOf(message, 'ce_id');
          if (id !== undefined) noteArrival(arrivals, id, now);
        }
      },
    });
    await joined;
  }

  /**
   * A COMPLETED outcome counts as the arrival of the handoff it names; every other event is skipped
   * undecoded. A Promise only while the registry is asked for a writer schema not seen before.
   */
  private noteCompleted(message: KafkaMessage, arrivals: Map<string, number>, now: number): Promise<void> | undefined {
    const { skipEventKeyPrefix } = this.options;
    if (skipEventKeyPrefix !== undefined && message.key?.toString().startsWith(skipEventKeyPrefix)) return undefined;
    if (recordHeaderOf(message, 'ce_type') !== COMPLETED_TYPE) return undefined;
    let read: string | Promise<string>;
    try {
      read = this.messageIds.read(message.value as Buffer);
    } catch {
      this.undecodable += 1;
      return undefined;
    }
    if (typeof read === 'string') {
      noteArrival(arrivals, read, now);
      return undefined;
    }
    return read.then(
      (messageId) => noteArrival(arrivals, messageId, now),
      () => {
        this.undecodable += 1;
      },
    );
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

  /** COMPLETED outcomes that did not decode: none is expected. */
  get undecodableEvents(): number {
    return this.undecodable;
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
  }
}
