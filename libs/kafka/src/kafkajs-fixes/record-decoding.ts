import { kafkajsModuleExports, replaceBeforeKafkajsLoads, type ModuleReplacement } from './module-replacement.js';

/**
 * kafkajs 2.2.4 decodes every fetched record (src/protocol/recordBatch/record/v0/decoder.js) in a
 * way that makes garbage in proportion to the square of its headers: the headers are folded with
 * `reduce((obj, header) => ({ ...obj, [key]: value }), {})`, a new object with every header so far
 * for each header, and the record's offset and timestamp are each computed through 64-bit Long
 * objects (a Long per varlong byte, three more per sum) and turned back into strings. A Baton record
 * carries ten to fourteen headers (CloudEvents, routing, tracing), so a record cost about a hundred
 * copied properties before anything read it. In a router profile under load this decoding was a
 * twelfth of the allocations and 6% of the busy time; every consumer and reader pays it.
 *
 * The replacement returns what kafkajs returns, field for field: the same offset and timestamp
 * strings (sums in plain numbers while both sides are exact integers, which offsets and millisecond
 * timestamps are, else in BigInt), the same key and value slices, and headers folded in one pass,
 * a repeated header turned into an array of its values in order as kafkajs does. One difference,
 * a fix: a header named like an Object.prototype member (`constructor`, `toString`, `__proto__`)
 * is read as its value, where kafkajs's fold found the inherited member and made `[member, value]`
 * of it.
 *
 * The record batch decoder takes the module when kafkajs loads, so this module is imported by
 * @baton/kafka before kafkajs itself, as produce-encoding.ts is. Not an upstream fix: Baton's. Tied
 * to the pinned version like the other fixes.
 */

/** kafkajs's Decoder, as far as a record's decoding reads it. */
export interface RecordDecoderInput {
  buffer: Buffer;
  offset: number;
  readInt8(): number;
  readVarInt(): number;
  readVarIntBytes(): Buffer | null;
  readVarIntString(): string | null;
}

/** What the record batch decoder hands each record (kafkajs's recordContext plus magicByte). */
export interface RecordBatchContext {
  firstOffset: string;
  firstTimestamp: string;
  maxTimestamp?: string;
  magicByte?: number;
  isControlBatch?: boolean;
  timestampType?: number;
}

type HeaderValue = Buffer | null;

export interface DecodedRecord {
  magicByte: number | undefined;
  attributes: number;
  timestamp: string;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, HeaderValue | HeaderValue[]>;
  isControlRecord: boolean;
  batchContext: RecordBatchContext;
}

/** kafkajs's TimestampTypes.LOG_APPEND_TIME. */
const LOG_APPEND_TIME = 1;
/** A decimal integer of at most 15 digits is exact as a double, and so is its sum with a safe delta. */
const EXACT_DIGITS = 15;

/** A varlong, zigzag-decoded: a number while exact, a bigint beyond 2^53. */
function readVarLong(decoder: RecordDecoderInput): number | bigint {
  const { buffer } = decoder;
  let unsigned = 0;
  let scale = 1;
  for (let bytes = 0; bytes < 7; bytes += 1) {
    const byte = buffer[decoder.offset++] as number;
    unsigned += (byte & 0x7f) * scale;
    if (byte < 0x80) return unsigned % 2 === 0 ? unsigned / 2 : -(unsigned + 1) / 2;
    scale *= 128;
  }
  // Past 49 bits: the rest in BigInt, up to kafkajs's bound of ten bytes.
  let wide = BigInt(unsigned);
  for (let shift = 49n; ; shift += 7n) {
    if (shift > 63n) throw new Error('Invalid Long, must contain 9 bytes or less');
    const byte = buffer[decoder.offset++] as number;
    wide += BigInt(byte & 0x7f) << shift;
    if (byte < 0x80) break;
  }
  wide = BigInt.asUintN(64, wide);
  return BigInt.asIntN(64, (wide >> 1n) ^ -(wide & 1n));
}

/** `base` (an int64 as kafkajs writes it, in decimal) plus `delta`, in decimal. */
function plus(base: string, delta: number | bigint): string {
  if (typeof delta === 'number' && base.length <= EXACT_DIGITS) return String(Number(base) + delta);
  return BigInt.asIntN(64, BigInt(base) + BigInt(delta)).toString();
}

/** Adds a header as kafkajs's fold does: one value as it is, a repeated name as an array of its values. */
function addHeader(headers: Record<string, HeaderValue | HeaderValue[]>, name: string, value: HeaderValue): void {
  // A value is a Buffer or null, never undefined: undefined is a header not seen yet.
  const earlier = Object.hasOwn(headers, name) ? headers[name] : undefined;
  if (earlier !== undefined) headers[name] = Array.isArray(earlier) ? [...earlier, value] : [earlier, value];
  // Defined, not assigned: `__proto__` must become a header, not the object's prototype.
  else if (name === '__proto__')
    Object.defineProperty(headers, name, { value, enumerable: true, writable: true, configurable: true });
  else headers[name] = value;
}

/** One record of a batch, as kafkajs's record decoder returns it. */
export function decodeRecord(decoder: RecordDecoderInput, batchContext: RecordBatchContext): DecodedRecord {
  const { firstOffset, firstTimestamp, magicByte, isControlBatch = false, timestampType, maxTimestamp } = batchContext;
  const attributes = decoder.readInt8();
  const timestampDelta = readVarLong(decoder);
  const timestamp =
    timestampType === LOG_APPEND_TIME && maxTimestamp ? maxTimestamp : plus(firstTimestamp, timestampDelta);
  const offset = plus(firstOffset, decoder.readVarInt());
  const key = decoder.readVarIntBytes();
  const value = decoder.readVarIntBytes();
  const headers: Record<string, HeaderValue | HeaderValue[]> = {};
  const count = decoder.readVarInt();
  for (let index = 0; index < count; index += 1) {
    // A null name (length -1) becomes "null", as kafkajs's computed key made it.
    const name = String(decoder.readVarIntString());
    addHeader(headers, name, decoder.readVarIntBytes());
  }
  return {
    magicByte,
    attributes,
    timestamp,
    offset,
    key,
    value,
    headers,
    isControlRecord: isControlBatch,
    batchContext,
  };
}

const RECORD_DECODER_MODULE = 'kafkajs/src/protocol/recordBatch/record/v0/decoder.js';
/** The module that takes it: the record batch decoder, loaded with kafkajs. */
const TAKERS = ['kafkajs/src/protocol/recordBatch/v0/decoder.js'];

let outcome: ModuleReplacement | undefined;

/** Puts decodeRecord in kafkajs's place, before kafkajs loads. Idempotent. */
export function patchRecordDecoding(): ModuleReplacement {
  outcome ??= replaceBeforeKafkajsLoads('record decoding', TAKERS, () => ({ [RECORD_DECODER_MODULE]: decodeRecord }));
  return outcome;
}

/** What kafkajs's record batch decoder gets for a record's decoder now (tests compare it with the replacement). */
export function kafkajsRecordDecoder(): unknown {
  return kafkajsModuleExports(RECORD_DECODER_MODULE);
}

patchRecordDecoding();
