import { randomUUID } from 'node:crypto';
import type { Admin, Producer } from 'kafkajs';
import { BatonError } from '@baton/errors';
import { kafkajsProducer } from '../create-kafka.js';
import { kafkajsClient, type KafkaClient } from '../kafka-client.js';
import { isLegalTopicName } from '../topics/topic-names.js';
import { fetchTopicWatermarks, type TopicWatermarks } from '../topics/topic-watermarks.js';
import { ChunkCollector } from './chunk-collector.js';
import { chunkHeaders } from './chunk-headers.js';
import { readChunks } from './chunk-reader.js';
import { DEFAULT_CHUNK_BYTES, splitIntoChunks } from './context-chunks.js';
import { sha256Hex, verifyContext } from './context-integrity.js';
import { contextNotFound } from './context-not-found.js';
import { formatContextUri, parseContextUri, type ContextLocation } from './context-uri.js';
import { withDeadline } from './deadline.js';
import { LazyConnection } from './lazy-connection.js';
import type { StoredContextRef } from './stored-context-ref.js';

export interface ContextStoreOptions {
  kafka: KafkaClient;
  /** The contexts topic, `topicNames(prefix).contexts`; it must exist. */
  topic: string;
  /**
   * Context bytes per record. Each chunk is one record and one produce request, so this plus the
   * headers must stay under the broker's message.max.bytes (1 MiB by default).
   * @default 512 KiB
   */
  chunkBytes?: number;
  /** How long a get may take, from its first request to the last chunk; then KAFKA_UNAVAILABLE. @default 30 s */
  fetchTimeoutMs?: number;
}

export interface PutContextOptions {
  /** Chooses the partition (the task_id by convention): every chunk of the put goes there. */
  key: string;
  /** Media type of the bytes, e.g. application/json. */
  contentType: string;
}

const DEFAULT_FETCH_TIMEOUT_MS = 30_000; // 30 s
/** Several chunks per fetch, where kafkajs's default (1 MiB) brings at most two of the default size. */
const MIN_FETCH_BYTES_PER_PARTITION = 8 * 1024 * 1024; // 8 MiB

/**
 * A claim-check store on Kafka: a context too large for one record is written in chunks to the
 * contexts topic before the message that refers to it, and the receiver fetches it by the
 * reference. Records are never deleted by the store; the topic's retention decides how long a
 * reference can be fetched.
 */
export class ContextStore {
  private readonly kafka: KafkaClient;
  private readonly topic: string;
  private readonly chunkBytes: number;
  private readonly fetchTimeoutMs: number;
  private readonly producer: Producer;
  private readonly admin: Admin;
  private readonly producerConnection: LazyConnection;
  private readonly adminConnection: LazyConnection;
  private closing: Promise<void> | undefined;

  constructor(options: ContextStoreOptions) {
    this.kafka = options.kafka;
    this.topic = options.topic;
    this.chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
    this.fetchTimeoutMs = options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
    if (!isLegalTopicName(this.topic)) {
      throw new BatonError(
        'CONFIG_INVALID',
        `context store topic ${JSON.stringify(this.topic)} is not a legal topic name`,
        {
          path: '/topic',
        },
      );
    }
    if (!Number.isSafeInteger(this.chunkBytes) || this.chunkBytes < 1) {
      throw new BatonError('CONFIG_INVALID', `chunkBytes must be a positive integer, got ${this.chunkBytes}`, {
        path: '/chunkBytes',
      });
    }
    if (!Number.isFinite(this.fetchTimeoutMs) || this.fetchTimeoutMs <= 0) {
      throw new BatonError('CONFIG_INVALID', `fetchTimeoutMs must be positive, got ${this.fetchTimeoutMs}`, {
        path: '/fetchTimeoutMs',
      });
    }
    this.producer = kafkajsProducer(this.kafka, { idempotent: true, maxInFlightRequests: 1 });
    this.admin = kafkajsClient(this.kafka).admin();
    this.producerConnection = new LazyConnection(this.producer);
    this.adminConnection = new LazyConnection(this.admin);
  }

  /**
   * Stores `bytes` and returns the reference to send in their place. Call it before the
   * transaction that sends the reference: chunks are written outside any transaction, so a
   * reference is never visible before its chunks are. A put that fails part-way leaves orphan
   * chunks that no reference names; retention removes them.
   */
  async put(bytes: Buffer, options: PutContextOptions): Promise<StoredContextRef> {
    this.assertOpen();
    const chunks = splitIntoChunks(bytes, this.chunkBytes);
    const sha256 = sha256Hex(bytes);
    const put = { contextId: randomUUID(), count: chunks.length, sha256, contentType: options.contentType };
    await this.producerConnection.ensure();
    let first: ContextLocation | undefined;
    for (const [index, chunk] of chunks.entries()) {
      // One send per chunk: kafkajs puts the messages of one send to one partition in a single
      // record batch, and the broker refuses a batch over message.max.bytes whatever its records' sizes.
      const [written] = await this.producer.send({
        topic: this.topic,
        acks: -1,
        messages: [
          {
            key: options.key,
            value: chunk,
            headers: chunkHeaders({ ...put, index }),
            // Pinned after the first chunk: a partition added to the topic mid-put would move the key.
            ...(first === undefined ? {} : { partition: first.partition }),
          },
        ],
      });
      const offset = written?.baseOffset ?? written?.offset;
      if (written === undefined || offset === undefined) {
        throw new Error(`the broker acknowledged chunk ${index} of a context on ${this.topic} without an offset`);
      }
      first ??= { topic: this.topic, partition: written.partition, offset: BigInt(offset) };
    }
    if (first === undefined) throw new Error('a context has at least one chunk');
    return { uri: formatContextUri(first), sha256, size_bytes: bytes.length, content_type: options.contentType };
  }

  /**
   * Fetches the bytes a reference names, checked against its size and sha256. Fails with
   * CONTEXT_REF_INVALID, CONTEXT_NOT_FOUND or CONTEXT_INTEGRITY_FAILED (none retriable), or with
   * KAFKA_UNAVAILABLE (retriable) when the fetch does not finish within fetchTimeoutMs.
   */
  async get(ref: StoredContextRef): Promise<Buffer> {
    this.assertOpen();
    const location = parseContextUri(ref.uri, this.topic);
    return withDeadline(
      this.fetchTimeoutMs,
      () =>
        new BatonError('KAFKA_UNAVAILABLE', `context ${ref.uri} not fetched within ${this.fetchTimeoutMs} ms`, {
          details: { uri: ref.uri },
        }),
      async (signal) => {
        const endOffset = await this.endOffsetHolding(location, ref.uri, signal);
        const collector = new ChunkCollector(ref.uri, location.offset);
        await readChunks({
          kafka: this.kafka,
          location,
          endOffset,
          collector,
          signal,
          maxBytesPerPartition: Math.max(MIN_FETCH_BYTES_PER_PARTITION, 2 * this.chunkBytes),
        });
        const bytes = collector.assemble();
        verifyContext(bytes, ref);
        return bytes;
      },
    );
  }

  /** Disconnects the producer and the admin client. Idempotent; both are disconnected even if one fails. */
  close(): Promise<void> {
    this.closing ??= Promise.allSettled([this.producer.disconnect(), this.admin.disconnect()]).then((results) => {
      const failure = results.find((result) => result.status === 'rejected');
      if (failure !== undefined) throw failure.reason;
    });
    return this.closing;
  }

  /**
   * The partition's end offset, once the watermarks show the location can still hold a record:
   * an offset below the low watermark was removed by retention, and waiting would not bring it back.
   */
  private async endOffsetHolding(location: ContextLocation, uri: string, signal: AbortSignal): Promise<bigint> {
    await this.adminConnection.ensure();
    let offsets: TopicWatermarks;
    try {
      offsets = await fetchTopicWatermarks(this.admin, location.topic, signal);
    } catch (error) {
      throw new BatonError('KAFKA_UNAVAILABLE', `the offsets of ${location.topic} could not be read`, { cause: error });
    }
    const watermarks = offsets.find(({ partition }) => partition === location.partition);
    if (watermarks === undefined) {
      throw contextNotFound(uri, `${location.topic} has no partition ${location.partition}`);
    }
    const low = BigInt(watermarks.low);
    const high = BigInt(watermarks.high);
    const details = { lowWatermark: watermarks.low, highWatermark: watermarks.high };
    if (location.offset < low) {
      throw contextNotFound(
        uri,
        `offset ${location.offset} is below the low watermark ${low}: removed by retention`,
        details,
      );
    }
    if (location.offset >= high) {
      throw contextNotFound(uri, `offset ${location.offset} is past the partition's end ${high}`, details);
    }
    return high;
  }

  private assertOpen(): void {
    if (this.closing !== undefined) throw new Error(`the context store of ${this.topic} is closed`);
  }
}
