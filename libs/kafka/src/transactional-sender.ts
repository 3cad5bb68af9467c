import type { Kafka, Producer } from 'kafkajs';
import { BatonError } from '@baton/errors';
import type { OutputRecord } from './consumer/consumed-record.js';
import { LazyConnection } from './context-store/lazy-connection.js';
import { createProducer } from './create-kafka.js';

export interface SentRecord {
  topic: string;
  partition: number;
  offset: string;
}

/**
 * Writes several records atomically, outside a consumer: all of them become visible to
 * read-committed readers, or none (a replay and its audit entry, say). The transactional id fences
 * an earlier process that used the same id.
 */
export class TransactionalSender {
  private readonly producer: Producer;
  private readonly connection: LazyConnection;
  /** Whether a send has connected, or tried to: close then disconnects. */
  private used = false;
  /** kafkajs allows one open transaction per producer; sends take turns. */
  private lane: Promise<unknown> = Promise.resolve();

  constructor(kafka: Kafka, transactionalId: string) {
    this.producer = createProducer(kafka, {
      transactionalId,
      idempotent: true,
      maxInFlightRequests: 1,
      retry: { initialRetryTime: 5, maxRetryTime: 1_000, retries: 10 },
    });
    this.connection = new LazyConnection(this.producer);
  }

  send(records: OutputRecord[]): Promise<SentRecord[]> {
    const run = this.lane.then(() => this.sendNow(records));
    this.lane = run.catch(() => undefined);
    return run;
  }

  private async sendNow(records: OutputRecord[]): Promise<SentRecord[]> {
    // A connection that failed is tried again by the next send: an outage must not outlive itself.
    this.used = true;
    await this.connection.ensure();
    const transaction = await this.producer.transaction();
    try {
      const sent: SentRecord[] = [];
      for (const record of records) {
        const [metadata] = await transaction.send({
          topic: record.topic,
          messages: [{ key: record.key, value: record.value, headers: record.headers, partition: record.partition }],
        });
        sent.push({ topic: record.topic, partition: metadata?.partition ?? -1, offset: metadata?.baseOffset ?? '-1' });
      }
      await transaction.commit();
      return sent;
    } catch (error) {
      await transaction.abort().catch(() => undefined);
      throw new BatonError('KAFKA_UNAVAILABLE', `transaction failed: ${(error as Error).message}`, { cause: error });
    }
  }

  async close(): Promise<void> {
    if (this.used) await this.producer.disconnect();
  }
}
