import type { KafkaMessage } from 'kafkajs';
import { FetchedRecord } from '../kafkajs-fixes/record-decoding.js';

/** Record headers as Baton handles them: one UTF-8 string per name. */
export type RecordHeaders = Record<string, string>;

/** Headers as a Kafka client hands them over: bytes or text, a repeated header as a list. */
export type ClientHeaders = Record<string, Buffer | string | null | (Buffer | string | null)[] | undefined>;

/** Reads a client's headers as strings; of a repeated header the last value wins, as in the Java client's lastHeader. */
export function readHeaders(headers: ClientHeaders | undefined): RecordHeaders {
  const result: RecordHeaders = {};
  if (headers === undefined) return result;
  // for...in, not Object.entries: this runs for every record consumed, and entries allocated a pair per header.
  for (const name in headers) {
    if (!Object.hasOwn(headers, name)) continue;
    const value = headers[name];
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    // A header with a null value (which Kafka allows) is no value.
    if (last !== undefined && last !== null) result[name] = last.toString();
  }
  return result;
}

/**
 * One header of a record kafkajs handed over, as a string (of a repeated header the last value),
 * read from the record's bytes when kafkajs fetched it (FetchedRecord) without decoding the others.
 */
export function recordHeaderOf(message: Pick<KafkaMessage, 'headers'>, name: string): string | undefined {
  if (message instanceof FetchedRecord) return message.headerString(name);
  const value = message.headers?.[name];
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  return last === undefined || last === null ? undefined : last.toString();
}

/** A fetched record's headers as strings: read from its bytes when kafkajs fetched it (FetchedRecord). */
export function recordHeadersOf(message: Pick<KafkaMessage, 'headers'>): RecordHeaders {
  return message instanceof FetchedRecord ? message.headerStrings() : readHeaders(message.headers);
}
