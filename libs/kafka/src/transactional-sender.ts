import type { Admin, Producer, RecordMetadata } from 'kafkajs';
import { BatonError } from '@baton/errors';
import { MAX_REQUEST_BYTES, produceRequests } from './consumer/produce-requests.js';
import { LazyConnection } from './context-store/lazy-connection.js';
import { javaCompatiblePartitioner } from './kafkajs-fixes/partitioner.js';
import { kafkajsProducer } from './create-kafka.js';
import { kafkajsClient, type KafkaClient } from './kafka-client.js';
import type { ProducerRecord } from './record-producer.js';

export interface SentRecord {
  topic: string;
  partition: number;
  offset: string;
}

interface QueuedSend {
  records: ProducerRecord[];
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
 * one transaction and a few produce requests, not one each. A group the broker refuses for one
 * send's record is sent again one send per transaction, so only that send fails. A record with a
 * null value is a tombstone, which removes its key from a compacted topic.
 */
export class TransactionalSender {
  private readonly producer: Producer;
  private readonly connection: LazyConnection;
  private readonly admin: Admin;
  private readonly adminConnection: LazyConnection;
  /** The producer's own partitioner, applied here so each record's partition, and so its offset, is known. */
  private readonly partitioner = javaCompatiblePartitioner();
  private readonly partitionCounts = new Map<string, Promise<number>>();
  /** Whether a send has connected, or tried to: close then disconnects. */
  private used = false;
  private readonly queue: QueuedSend[] = [];
  /** kafkajs allows one open transaction per producer. */
  private sending: Promise<void> | undefined;

  constructor(kafka: KafkaClient, transactionalId: string) {
    this.producer = kafkajsProducer(kafka, {
      transactionalId,
      idempotent: true,
      maxInFlightRequests: 1,
      retry: { initialRetryTime: 5, maxRetryTime: 1_000, retries: 10 },
    });
    this.connection = new LazyConnection(this.producer);
    this.admin = kafkajsClient(kafka).admin();
    this.adminConnection = new LazyConnection(this.admin);
  }

  /**
   * Connects now rather than at the first send: the transactional id is initialised, which fences
   * an earlier process that used it and aborts the transaction it left open (whose records hold
   * read-committed readers of its partitions back until then). A failed connect is tried again by
   * the next send.
   */
  async connect(): Promise<void> {
    this.used = true;
    await this.connection.ensure();
  }

  send(records: ProducerRecord[]): Promise<SentRecord[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ records, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    if (this.sending !== undefined || this.queue.length === 0) return;
    let taken = 1;
    let count = this.queue[0]?.records.length ?? 0;
    for (; taken < this.queue.length; taken += 1) {
      const more = this.queue[taken]?.records.length ?? 0;
      if (count + more > GROUP_MAX_RECORDS) break;
      count += more;
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

  private async transact(records: ProducerRecord[]): Promise<SentRecord[]> {
    // A connection that failed is tried again by the next send: an outage must not outlive itself.
    this.used = true;
    await this.connection.ensure();
    const placed = await this.place(records);
    const transaction = await this.producer.transaction();
    try {
      const sent: SentRecord[] = [];
      for (const topicMessages of produceRequests(placed, MAX_REQUEST_BYTES)) {
        const metadata = await transaction.sendBatch({ topicMessages });
        const requestRecords = placed.slice(sent.length, sent.length + countMessages(topicMessages));
        sent.push(...offsetsOf(requestRecords, metadata));
      }
      await transaction.commit();
      return sent;
    } catch (error) {
      await transaction.abort().catch(() => undefined);
      throw error;
    }
  }

  /** Each record with its partition: its own, else the one the key hashes to, as the producer would choose. */
  private async place(records: ProducerRecord[]): Promise<(ProducerRecord & { partition: number })[]> {
    const counts = new Map<string, number>();
    for (const topic of new Set(records.map((record) => record.topic))) {
      counts.set(topic, await this.partitionCount(topic));
    }
    return records.map((record) => ({
      ...record,
      partition:
        record.partition ??
        this.partitioner({
          topic: record.topic,
          partitionMetadata: Array.from({ length: counts.get(record.topic) ?? 1 }, (_, partitionId) => ({
            partitionId,
            leader: 0,
            partitionErrorCode: 0,
            replicas: [],
            isr: [],
          })),
          message: { key: record.key, value: record.value },
        }),
    }));
  }

  private partitionCount(topic: string): Promise<number> {
    let count = this.partitionCounts.get(topic);
    if (count === undefined) {
      count = (async () => {
        await this.adminConnection.ensure();
        const metadata = await this.admin.fetchTopicMetadata({ topics: [topic] });
        const partitions = metadata.topics[0]?.partitions.length ?? 0;
        if (partitions === 0) throw new BatonError('KAFKA_UNAVAILABLE', `topic ${topic} has no partitions`);
        return partitions;
      })();
      this.partitionCounts.set(topic, count);
      count.catch(() => this.partitionCounts.delete(topic));
    }
    return count;
  }

  /** Disconnects once every send queued before has been sent (or failed). */
  async close(): Promise<void> {
    // Each group sent starts the next one queued.
    while (this.sending !== undefined) await this.sending;
    if (this.used) await Promise.all([this.producer.disconnect(), this.admin.disconnect()]);
  }
}

function countMessages(topicMessages: { messages: unknown[] }[]): number {
  return topicMessages.reduce((sum, topic) => sum + topic.messages.length, 0);
}

/** Within one request, a partition's records sit at consecutive offsets from the batch's base offset. */
function offsetsOf(records: (ProducerRecord & { partition: number })[], metadata: RecordMetadata[]): SentRecord[] {
  const next = new Map<string, bigint>();
  for (const entry of metadata) next.set(`${entry.topicName}:${entry.partition}`, BigInt(entry.baseOffset ?? '-1'));
  return records.map((record) => {
    const key = `${record.topic}:${record.partition}`;
    const offset = next.get(key) ?? -1n;
    next.set(key, offset + 1n);
    return { topic: record.topic, partition: record.partition, offset: offset.toString() };
  });
}
