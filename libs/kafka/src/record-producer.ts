import type { Producer } from 'kafkajs';
import type { OutputRecord } from './consumer/consumed-record.js';
import { kafkajsProducer } from './create-kafka.js';
import { LazyConnection } from './context-store/lazy-connection.js';
import type { KafkaClient } from './kafka-client.js';
import { isSequenceUnresolved } from './kafkajs-fixes/partition-turns.js';

/** A record a RecordProducer writes: an output record, or a tombstone (a null value) for a compacted topic. */
export type ProducerRecord = Omit<OutputRecord, 'value'> & { value: Buffer | string | null };

/** Where the records of one send went in one partition: the first one's offset, the others after it in order. */
export interface ProducedBatch {
  topic: string;
  partition: number;
  /** The offset of the send's first record in this partition. */
  baseOffset: string;
}

/** A kafkajs producer and the sends under way on it; retired ones take no new send. */
interface Generation {
  producer: Producer;
  connection: LazyConnection;
  /** Whether a send or `connect` has connected it, or tried to: disconnecting then has something to undo. */
  used: boolean;
  sending: number;
  retired: boolean;
}

/**
 * Writes records outside any transaction and consumer: an idempotent producer, so its own retries
 * never write a record twice, one request in flight, so a partition's records stay in the order
 * sent; a send resolves once the broker has its records on all in-sync replicas (acks=all). Keyed
 * records are partitioned by murmur2 of the key, as the Java client does, unless a record names its
 * partition. Concurrent sends are safe: a partition takes one at a time. For writes that must be
 * atomic, see TransactionalSender.
 *
 * A send that fails leaves its partitions' sequence numbers unknown (the broker may have written
 * it), so the sends after it go to a new kafkajs producer, with a new producer id; the old one is
 * disconnected once its sends are done, and a send it refused unsent is sent on the new one.
 *
 * A send connects first if `connect` was not called; a failed connection is tried again by the
 * next send.
 */
export class RecordProducer {
  private generation: Generation;
  private closed = false;

  constructor(private readonly kafka: KafkaClient) {
    this.generation = this.newGeneration();
  }

  connect(): Promise<void> {
    return this.connectGeneration(this.generation);
  }

  /**
   * Writes `records` in one request, each partition's in the order given, and resolves with one
   * batch per partition written. Rejects with kafkajs's error when the broker cannot be reached or
   * refuses a record (the producer has retried by then).
   */
  async send(records: readonly ProducerRecord[]): Promise<ProducedBatch[]> {
    if (records.length === 0) return [];
    const byTopic = new Map<string, ProducerRecord[]>();
    for (const record of records) {
      const topic = byTopic.get(record.topic) ?? [];
      byTopic.set(record.topic, topic);
      topic.push(record);
    }
    const topicMessages = [...byTopic].map(([topic, messages]) => ({
      topic,
      messages: messages.map(({ key, value, headers, partition }) => ({ key, value, headers, partition })),
    }));
    for (;;) {
      const generation = this.generation;
      generation.sending += 1;
      try {
        await this.connectGeneration(generation);
        const written = await generation.producer.sendBatch({ acks: -1, topicMessages });
        return written.map((batch) => ({
          topic: batch.topicName,
          partition: batch.partition,
          baseOffset: batch.baseOffset ?? '-1',
        }));
      } catch (error) {
        this.retire(generation);
        // Refused before anything was sent, because an earlier send failed: the new producer sends it.
        if (!isSequenceUnresolved(error) || this.closed) throw error;
      } finally {
        generation.sending -= 1;
        if (generation.retired && generation.sending === 0) this.disconnectGeneration(generation);
      }
    }
  }

  /** Disconnects, once what is in flight is sent; a producer never connected has nothing to do. Sends no more. */
  async disconnect(): Promise<void> {
    this.closed = true;
    if (this.generation.used) await this.generation.producer.disconnect();
  }

  private newGeneration(): Generation {
    const producer = kafkajsProducer(this.kafka, { idempotent: true, maxInFlightRequests: 1 });
    return { producer, connection: new LazyConnection(producer), used: false, sending: 0, retired: false };
  }

  private connectGeneration(generation: Generation): Promise<void> {
    generation.used = true;
    return generation.connection.ensure();
  }

  /** Sends after this go to a new producer. */
  private retire(generation: Generation): void {
    if (generation.retired) return;
    generation.retired = true;
    if (this.generation === generation) this.generation = this.newGeneration();
  }

  private disconnectGeneration(generation: Generation): void {
    if (generation.used) generation.producer.disconnect().catch(() => undefined);
  }
}
