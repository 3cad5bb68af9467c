import { sizeOfVarInt, utf8Length, writeUtf8, writeVarInt } from '../kafkajs-fixes/produce-request.js';
import { headerStringsAt, type EncodedHeaders } from '../kafkajs-fixes/record-decoding.js';

/** The buffer blocks are written into, one after another, until it is full: Node's Buffer pool, for blocks. */
const ARENA_BYTES = 64 * 1024;
let arena = Buffer.allocUnsafe(ARENA_BYTES);
let used = 0;

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
    size += sizeOfVarInt(nameBytes) + nameBytes + sizeOfVarInt(valueBytes) + valueBytes;
    count += 1;
  }
  if (used + size > arena.length) {
    arena = Buffer.allocUnsafe(Math.max(ARENA_BYTES, size));
    used = 0;
  }
  const start = used;
  let at = start;
  for (const name in headers) {
    if (!Object.hasOwn(headers, name)) continue;
    const value = headers[name] as string;
    const nameBytes = utf8Length(name);
    at = writeVarInt(arena, nameBytes, at);
    at += writeUtf8(arena, name, at, nameBytes);
    const valueBytes = utf8Length(value);
    at = writeVarInt(arena, valueBytes, at);
    at += writeUtf8(arena, value, at, valueBytes);
  }
  used = at;
  return { bytes: arena, start, end: at, count };
}

/** The headers of a block as strings, one per name (of a repeated one the last value). */
export function encodedHeaderStrings(block: EncodedHeaders): Record<string, string> {
  return headerStringsAt(block.bytes, block.start, block.count);
}
