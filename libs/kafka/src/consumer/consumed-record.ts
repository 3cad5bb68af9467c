import type { KafkaMessage } from 'kafkajs';
import { readHeaders, type RecordHeaders } from '../headers/record-headers.js';
import { FetchedRecord, type EncodedHeaders } from '../kafkajs-fixes/record-decoding.js';

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
  /** Set only where co-partitioning demands it; otherwise the key decides. */
  partition?: number;
}

/**
 * A record kafkajs fetched, as processors and readers see it: its headers decoded as strings when
 * first read. A router reads none of a handoff's dozen headers (it sends them on as they were
 * fetched), and each of them was a string made, and held until its transaction committed, for
 * every message.
 */
class FetchedConsumedRecord implements ConsumedRecord {
  readonly offset: string;
  readonly key: string | null;
  readonly value: Buffer | null;
  readonly timestamp: string;
  readonly #fetched: FetchedRecord;
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
    this.#fetched = fetched;
  }

  get headers(): RecordHeaders {
    this.#headers ??= this.#fetched.headerStrings();
    return this.#headers;
  }

  /** One header, read from the bytes while the others have not been decoded. */
  header(name: string): string | undefined {
    if (this.#headers === undefined) return this.#fetched.headerString(name);
    return Object.hasOwn(this.#headers, name) ? this.#headers[name] : undefined;
  }

  get encodedHeaders(): EncodedHeaders {
    this.#encodedHeaders ??= this.#fetched.headerBlock();
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
