import { sizeOfVarInt, utf8Length, writeUtf8, writeVarInt } from '../kafkajs-fixes/produce-request.js';
import { headerStringsAt, type EncodedHeaders } from '../kafkajs-fixes/record-decoding.js';

/** The buffer blocks are written into, one after another, until it is full: Node's Buffer pool, for blocks. */
const ARENA_BYTES = 64 * 1024;
let arena = Buffer.allocUnsafe(ARENA_BYTES);
let used = 0;
/** Each name's and value's UTF-8 length, measured once for the sizing and the writing. */
const lengths: number[] = [];

/**
 * `headers` in Kafka's record format, for a record to carry as its encodedHeaders (the producer
 * copies them as they are). Blocks share a buffer, so a record holds one small object for its
 * headers rather than an object, a string per value and, for a Buffer of their own, about 90
 * bytes more: a service holds each record it writes until its transaction commits, and makes one
 * outcome event for every message.
 */
export function encodeHeaderBlock(headers: Readonly<Record<string, string>>): EncodedHeaders {
  let size = 0;
  let count = 0;
  for (const name in headers) {
    if (!Object.hasOwn(headers, name)) continue;
    const nameBytes = utf8Length(name);
    const valueBytes = utf8Length(headers[name] as string);
    lengths[2 * count] = nameBytes;
    lengths[2 * count + 1] = valueBytes;
    size += sizeOfVarInt(nameBytes) + nameBytes + sizeOfVarInt(valueBytes) + valueBytes;
    count += 1;
  }
  if (used + size > arena.length) {
    arena = Buffer.allocUnsafe(Math.max(ARENA_BYTES, size));
    used = 0;
  }
  const start = used;
  let at = start;
  let index = 0;
  for (const name in headers) {
    if (!Object.hasOwn(headers, name)) continue;
    at = writeField(name, lengths[index++] as number, at);
    at = writeField(headers[name] as string, lengths[index++] as number, at);
  }
  used = at;
  return { bytes: arena, start, end: at, count };
}

/** `text` of UTF-8 length `length` behind its length, at `at` of the arena; the offset after it. */
function writeField(text: string, length: number, at: number): number {
  const after = writeVarInt(arena, length, at);
  return after + writeUtf8(arena, text, after, length);
}

/** The headers of a block as strings, one per name (of a repeated one the last value). */
export function encodedHeaderStrings(block: EncodedHeaders): Record<string, string> {
  return headerStringsAt(block.bytes, block.start, block.count);
}
