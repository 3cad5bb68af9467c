import type { Producer } from 'kafkajs';
import type { OutputRecord } from './consumer/consumed-record.js';
import { kafkajsProducer } from './create-kafka.js';
import type { KafkaClient } from './kafka-client.js';

/** A record a RecordProducer writes: an output record, or a tombstone (a null value) for a compacted topic. */
export type ProducerRecord = Omit<OutputRecord, 'value'> & { value: Buffer | string | null };

/** Where the records of one send went in one partition: the first one's offset, the others after it in order. */
export interface ProducedBatch {
  topic: string;
  partition: number;
  /** The offset of the send's first record in this partition. */
  baseOffset: string;
}

/**
 * Writes records outside any transaction and consumer: an idempotent producer, so its own retries
 * never write a record twice, one request in flight, so a partition's records stay in the order
 * sent; a send resolves once the broker has its records on all in-sync replicas (acks=all). Keyed
 * records are partitioned by murmur2 of the key, as the Java client does, unless a record names its
 * partition. For writes that must be atomic, see TransactionalSender.
 *
 * A send connects first if `connect` was not called; a failed connection is tried again by the
 * next send.
 */
export class RecordProducer {
  private readonly producer: Producer;
  private connected: Promise<void> | undefined;

  constructor(kafka: KafkaClient) {
    this.producer = kafkajsProducer(kafka, { idempotent: true, maxInFlightRequests: 1 });
  }

  connect(): Promise<void> {
    if (this.connected === undefined) {
      const attempt = this.producer.connect();
      this.connected = attempt;
      attempt.catch(() => {
        if (this.connected === attempt) this.connected = undefined;
      });
    }
    return this.connected;
  }

  /**
   * Writes `records` in one request, each partition's in the order given, and resolves with one
   * batch per partition written. Rejects with kafkajs's error when the broker cannot be reached or
   * refuses a record (the producer has retried by then).
   */
  async send(records: readonly ProducerRecord[]): Promise<ProducedBatch[]> {
    if (records.length === 0) return [];
    await this.connect();
    const byTopic = new Map<string, ProducerRecord[]>();
    for (const record of records) {
      const topic = byTopic.get(record.topic) ?? [];
      byTopic.set(record.topic, topic);
      topic.push(record);
    }
    const written = await this.producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, messages]) => ({
        topic,
        messages: messages.map(({ key, value, headers, partition }) => ({ key, value, headers, partition })),
      })),
    });
    return written.map((batch) => ({
      topic: batch.topicName,
      partition: batch.partition,
      baseOffset: batch.baseOffset ?? '-1',
    }));
  }

  /** Disconnects, once what is in flight is sent; a producer never connected has nothing to do. */
  async disconnect(): Promise<void> {
    if (this.connected === undefined) return;
    this.connected = undefined;
    await this.producer.disconnect();
  }
}
