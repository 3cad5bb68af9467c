import type { Message, TopicMessages } from 'kafkajs';
import { utf8Length } from '../kafkajs-fixes/produce-request.js';
import type { OutputRecord } from './consumed-record.js';

/**
 * A record to write in a transaction: an output, a processed-id marker (value as text), or a
 * tombstone (TransactionalSender's records may remove a key of a compacted topic).
 */
export type TransactionRecord = Omit<OutputRecord, 'value'> & { value: Buffer | string | null };

/** Produce requests stay under the broker's default message.max.bytes (1 MiB) per partition batch. */
export const MAX_REQUEST_BYTES = 512 * 1024;

/** Bytes a record takes on the wire, near enough to size produce requests. */
export function recordBytes(record: TransactionRecord): number {
  const { key, value, headers, encodedHeaders } = record;
  let bytes =
    64 + utf8Length(key) + (value === null ? 0 : typeof value === 'string' ? utf8Length(value) : value.length);
  if (encodedHeaders !== undefined) bytes += encodedHeaders.end - encodedHeaders.start;
  // Every record of a transaction is measured, each header included: for...in, not an array of
  // their names, and the produce encoder's UTF-8 length, which measures short ASCII without a call
  // into C++ (Buffer.byteLength was 2% of a loaded router's CPU here).
  if (headers !== undefined) for (const name in headers) bytes += name.length + utf8Length(headers[name] as string);
  return bytes;
}

/**
 * Groups records into as few produce requests as possible, each at most `maxBytes` (a record larger
 * than that goes alone): a broker refuses a record batch over its message.max.bytes (1 MiB by
 * default), and kafkajs sends one batch per partition per request without splitting it. Order is
 * kept within each topic, which keeps it within each partition, and each request holds the next
 * records in order: the first request the first n, the second the n after them, and so on.
 */
export function produceRequests(
  records: readonly TransactionRecord[],
  maxBytes: number,
  /** Each record's recordBytes, when the caller has them already. */
  sizes?: readonly number[],
): TopicMessages[][] {
  const requests: TopicMessages[][] = [];
  let current = new Map<string, TopicMessages>();
  let currentBytes = 0;
  for (let index = 0; index < records.length; index += 1) {
    const record = records[index] as TransactionRecord;
    const bytes = sizes?.[index] ?? recordBytes(record);
    if (currentBytes > 0 && currentBytes + bytes > maxBytes) {
      requests.push([...current.values()]);
      current = new Map();
      currentBytes = 0;
    }
    let topic = current.get(record.topic);
    if (!topic) current.set(record.topic, (topic = { topic: record.topic, messages: [] }));
    // The record itself, not a copy: it has every field kafkajs reads of a message (its topic is ignored).
    topic.messages.push(record as Message);
    currentBytes += bytes;
  }
  if (currentBytes > 0) requests.push([...current.values()]);
  return requests;
}
