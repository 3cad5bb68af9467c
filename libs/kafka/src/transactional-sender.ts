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

interface QueuedSend {
  records: OutputRecord[];
  resolve(sent: SentRecord[]): void;
  reject(error: BatonError): void;
}

/** Records one transaction takes from the queue, at most; a single larger send still goes whole. */
const GROUP_MAX_RECORDS = 1_000;

/** A record the broker refuses whatever the attempt (too large, invalid), not a broker out of reach. */
function isRefusedRecord(error: unknown): boolean {
  for (let current: unknown = error; current !== undefined && current !== null;) {
    const { name, retriable, cause } = current as { name?: string; retriable?: boolean; cause?: unknown };
    if (name === 'KafkaJSProtocolError' && retriable === false) return true;
    current = cause === current ? undefined : cause;
  }
  return false;
}

/**
 * Writes several records atomically, outside a consumer: all of them become visible to
 * read-committed readers, or none (a replay and its audit entry, say). The transactional id fences
 * an earlier process that used the same id. Sends that arrive while a transaction is under way are
 * committed together in the next one (group commit), each send still all or nothing: a burst costs
 * one transaction, not one each. A group the broker refuses for one send's record is sent again one
 * send per transaction, so only that send fails.
 */
export class TransactionalSender {
  private readonly producer: Producer;
  private readonly connection: LazyConnection;
  /** Whether a send has connected, or tried to: close then disconnects. */
  private used = false;
  private readonly queue: QueuedSend[] = [];
  /** kafkajs allows one open transaction per producer. */
  private sending: Promise<void> | undefined;

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
    return new Promise((resolve, reject) => {
      this.queue.push({ records, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    if (this.sending !== undefined || this.queue.length === 0) return;
    let count = 0;
    let taken = 0;
    while (
      taken < this.queue.length &&
      (taken === 0 || count + (this.queue[taken]?.records.length ?? 0) <= GROUP_MAX_RECORDS)
    ) {
      count += this.queue[taken]?.records.length ?? 0;
      taken += 1;
    }
    const group = this.queue.splice(0, taken);
    this.sending = this.sendGroup(group).finally(() => {
      this.sending = undefined;
      this.next();
    });
  }

  private async sendGroup(group: QueuedSend[]): Promise<void> {
    try {
      const sent = await this.transact(group.flatMap((send) => send.records));
      let from = 0;
      for (const send of group) {
        send.resolve(sent.slice(from, from + send.records.length));
        from += send.records.length;
      }
    } catch (error) {
      if (group.length > 1 && isRefusedRecord(error)) {
        for (const send of group) await this.sendGroup([send]);
        return;
      }
      const failure = new BatonError('KAFKA_UNAVAILABLE', `transaction failed: ${(error as Error).message}`, {
        cause: error,
      });
      for (const send of group) send.reject(failure);
    }
  }

  private async transact(records: OutputRecord[]): Promise<SentRecord[]> {
    // A connection that failed is tried again by the next send: an outage must not outlive itself.
    this.used = true;
    await this.connection.ensure();
    const transaction = await this.producer.transaction();
    try {
      const sent: SentRecord[] = [];
      // One request per record, in order: each caller learns where each of its records went.
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
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.sending;
    if (this.used) await this.producer.disconnect();
  }
}
