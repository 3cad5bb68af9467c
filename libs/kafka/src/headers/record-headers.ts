import type { IHeaders } from 'kafkajs';

/** Record headers as Baton handles them: one UTF-8 string per name. */
export type RecordHeaders = Record<string, string>;

/** Reads kafkajs headers as strings; of a repeated header the last value wins, as in the Java client's lastHeader. */
export function readHeaders(headers: IHeaders | undefined): RecordHeaders {
  const result: RecordHeaders = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (last !== undefined) result[name] = last.toString();
  }
  return result;
}
