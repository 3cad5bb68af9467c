import type { KafkaMessage } from 'kafkajs';
import { readHeaders, type RecordHeaders } from '../headers/record-headers.js';
import {
  FetchedRecord,
  headerStringAt,
  headerStringsAt,
  type EncodedHeaders,
} from '../kafkajs-fixes/record-decoding.js';

/** A record as a processor sees it. */
export interface ConsumedRecord {
  topic: string;
  partition: number;
  offset: string;
  /** The task_id by convention; records with the same key are processed in order. */
  key: string | null;
  value: Buffer | null;
  headers: RecordHeaders;
  /**
   * The same headers exactly as fetched, when the client handed them over so: an output that
   * carries them on (OutputRecord.encodedHeaders) has them copied, not decoded and encoded again.
   */
  encodedHeaders?: EncodedHeaders;
  timestamp: string;
}

/** A record a processor asks to publish; it is written in the same transaction as the consumed offset. */
export interface OutputRecord {
  topic: string;
  key: string;
  value: Buffer;
  headers?: RecordHeaders;
  /**
   * Headers written before `headers`, as they are (a consumed record's encodedHeaders): a record
   * carried on with what it had, as the router's are. One of `headers` replaces any of them of the
   * same name.
   */
  encodedHeaders?: EncodedHeaders;
  /**
   * The writer's word that no name of `headers` is among `encodedHeaders`: the producer then writes
   * both as they are, without looking through the block for a header to replace.
   */
  headersAdded?: boolean;
  /** Set only where co-partitioning demands it; otherwise the key decides. */
  partition?: number;
}

/** The fetched memory a header was last read from, and a view of it: the records of one fetch share it. */
let viewedMemory: ArrayBufferLike | undefined;
let memoryView: Buffer = Buffer.alloc(0);

/** A view of `memory`, made once for the records of a fetch rather than for each header read. */
function viewOf(memory: ArrayBufferLike): Buffer {
  if (memory !== viewedMemory) {
    memoryView = Buffer.from(memory);
    viewedMemory = memory;
  }
  return memoryView;
}

/**
 * A record kafkajs fetched, as processors and readers see it: its headers decoded as strings when
 * first read. A router reads none of a handoff's dozen headers (it sends them on as they were
 * fetched), and each of them was a string made, and held until its transaction committed, for
 * every message.
 *
 * It keeps where the headers lie in the fetched memory, not the FetchedRecord: a service holds each
 * record until its message's transaction commits, through every young-generation collection
 * meanwhile, and the FetchedRecord with its view of the record's bytes was about 220 bytes more
 * per message for the collector to copy twice.
 */
class FetchedConsumedRecord implements ConsumedRecord {
  readonly offset: string;
  readonly key: string | null;
  readonly value: Buffer | null;
  readonly timestamp: string;
  /** The fetched memory the headers lie in, shared by the records of a fetch. */
  readonly #memory: ArrayBufferLike;
  readonly #headersOffset: number;
  readonly #headersLength: number;
  readonly #headerCount: number;
  #headers: RecordHeaders | undefined;
  #encodedHeaders: EncodedHeaders | undefined;

  constructor(
    readonly topic: string,
    readonly partition: number,
    fetched: FetchedRecord,
  ) {
    this.offset = fetched.offset;
    this.key = fetched.keyString();
    this.value = fetched.value;
    this.timestamp = fetched.timestamp;
    const { buffer, byteOffset, byteLength, count } = fetched.headerBytes;
    this.#memory = buffer;
    this.#headersOffset = byteOffset;
    this.#headersLength = byteLength;
    this.#headerCount = count;
  }

  get headers(): RecordHeaders {
    this.#headers ??= headerStringsAt(viewOf(this.#memory), this.#headersOffset, this.#headerCount);
    return this.#headers;
  }

  /** One header, read from the bytes while the others have not been decoded. */
  header(name: string): string | undefined {
    if (this.#headers === undefined) {
      return headerStringAt(viewOf(this.#memory), this.#headersOffset, this.#headerCount, name);
    }
    return Object.hasOwn(this.#headers, name) ? this.#headers[name] : undefined;
  }

  get encodedHeaders(): EncodedHeaders {
    const start = this.#headersOffset;
    // The fetch's view, shared by its records: a record that carries its headers on holds no Buffer for them.
    this.#encodedHeaders ??= {
      bytes: viewOf(this.#memory),
      start,
      end: start + this.#headersLength,
      count: this.#headerCount,
    };
    return this.#encodedHeaders;
  }
}

/**
 * One header of a consumed record, as `record.headers[name]` (of a repeated one the last value), but
 * without decoding the others when they have not been read yet: an agent asks each handoff for
 * one or two of its dozen.
 */
export function headerOf(record: ConsumedRecord, name: string): string | undefined {
  if (record instanceof FetchedConsumedRecord) return record.header(name);
  return Object.hasOwn(record.headers, name) ? record.headers[name] : undefined;
}

/** A record kafkajs delivered, as processors and readers see it. */
export function consumedRecord(topic: string, partition: number, message: KafkaMessage): ConsumedRecord {
  if (message instanceof FetchedRecord) return new FetchedConsumedRecord(topic, partition, message);
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key?.toString() ?? null,
    value: message.value,
    headers: readHeaders(message.headers),
    timestamp: message.timestamp,
  };
}
