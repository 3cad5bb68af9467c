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
 * timestamps are, else in BigInt), the same key and value slices, and headers folded in one pass
 * when first read (FetchedRecord), a repeated header turned into an array of its values in order as
 * kafkajs does. One difference, a fix: a header named like an Object.prototype member
 * (`constructor`, `toString`, `__proto__`) is read as its value, where kafkajs's fold found the
 * inherited member and made `[member, value]` of it.
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
  else setOwn(headers, name, value);
}

/** Sets a property; `__proto__` is defined, so that it becomes a header, not the object's prototype. */
function setOwn<V>(target: Record<string, V>, name: string, value: V): void {
  if (name === '__proto__')
    Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  else target[name] = value;
}

/** Where the header walk is in a record's bytes: one module-level cursor, not an object per read. */
let cursor = 0;

/** A zigzag varint at the cursor, as kafkajs's Decoder.readVarInt reads it. */
function varIntAt(bytes: Buffer): number {
  let unsigned = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = bytes[cursor++];
    if (byte === undefined || shift > 28) throw new RangeError('a record header runs past its record');
    unsigned |= (byte & 0x7f) << shift;
    if (byte < 0x80) break;
  }
  return (unsigned >>> 1) ^ -(unsigned & 1);
}

/** Moves the cursor past a length-prefixed field (-1: null) and returns its length. */
function skipField(bytes: Buffer): number {
  const length = varIntAt(bytes);
  if (length > 0) {
    if (cursor + length > bytes.length) throw new RangeError('a record header runs past its record');
    cursor += length;
  }
  return length;
}

/**
 * The names of the previous record's headers, by position: the records of a topic carry the same
 * headers in the same order, so a name whose bytes match is the same string, neither decoded nor
 * looked up in V8's string table again when it becomes a property key.
 */
const recentNames: string[] = [];
const RECENT_NAMES = 32;

/** Whether the bytes at `start` are `text`, an ASCII string, byte for byte (the caller has compared the lengths). */
function isAsciiAt(bytes: Buffer, start: number, text: string): boolean {
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code >= 0x80 || code !== bytes[start + at]) return false;
  }
  return true;
}

/** The header name of `length` bytes at `start`, the `index`-th of its record; null (-1) is "null", as in kafkajs. */
function headerName(bytes: Buffer, start: number, length: number, index: number): string {
  if (length < 0) return 'null';
  const recent = recentNames[index];
  if (recent !== undefined && recent.length === length && isAsciiAt(bytes, start, recent)) return recent;
  const name = bytes.toString('utf8', start, start + length);
  if (index < RECENT_NAMES) recentNames[index] = name;
  return name;
}

/**
 * `count` headers in Kafka's record format from `at` in `bytes`, as kafkajs hands them over: a
 * Buffer per value (null for a null one), a repeated name as an array of its values in order.
 */
export function decodeHeaderBlock(
  bytes: Buffer,
  at: number,
  count: number,
): Record<string, HeaderValue | HeaderValue[]> {
  const headers: Record<string, HeaderValue | HeaderValue[]> = {};
  cursor = at;
  for (let index = 0; index < count; index += 1) {
    const nameLength = skipField(bytes);
    const name = headerName(bytes, cursor - Math.max(nameLength, 0), nameLength, index);
    const valueLength = skipField(bytes);
    addHeader(headers, name, valueLength < 0 ? null : bytes.subarray(cursor - valueLength, cursor));
  }
  return headers;
}

/**
 * `count` headers in Kafka's record format (each a length-prefixed name and value), the bytes from
 * `start` to `end` of `bytes`. `bytes` may hold much else: a view of a whole fetched response, or
 * of a buffer many blocks were written into, shared by the blocks in it, so that a record that
 * carries a block holds no Buffer of its own for it.
 */
export interface EncodedHeaders {
  readonly bytes: Buffer;
  readonly start: number;
  readonly end: number;
  readonly count: number;
}

/**
 * A header block, or what is left of one: runs of whole headers to copy as they are, from
 * `bounds[2i]` to `bounds[2i + 1]` of `bytes`, and how many headers they hold.
 */
export interface HeaderRuns {
  bytes: Buffer;
  bounds: number[];
  count: number;
}

/** Whether the `length` bytes at `start` are `name`, whose UTF-8 is `nameLength` bytes. */
function isNameAt(bytes: Buffer, start: number, length: number, name: string, nameLength: number): boolean {
  if (length !== nameLength) return false;
  // A name whose UTF-8 is as long as it is ASCII: compared byte for byte, the usual case.
  if (nameLength === name.length) return isAsciiAt(bytes, start, name);
  return bytes.toString('utf8', start, start + length) === name;
}

/** Header names to look for in a block, each with the length of its UTF-8. */
export interface HeaderNames {
  names: readonly string[];
  lengths: readonly number[];
}

/** `names` to look for in header blocks, measured once. */
export function headerNames(names: readonly string[]): HeaderNames {
  return { names, lengths: names.map((name) => Buffer.byteLength(name)) };
}

/** Reads the name of the header at the cursor, which moves past it: whether it is one of `wanted`. */
function nameIsOneOf(bytes: Buffer, wanted: HeaderNames): boolean {
  const length = skipField(bytes);
  const start = cursor - Math.max(length, 0);
  for (let name = 0; name < wanted.names.length; name += 1) {
    if (isNameAt(bytes, start, length, wanted.names[name] as string, wanted.lengths[name] as number)) return true;
  }
  return false;
}

/** Whether a block holds a header of one of `wanted`, found without decoding any. */
export function hasHeaderNamed(block: EncodedHeaders, wanted: HeaderNames): boolean {
  cursor = block.start;
  for (let index = 0; index < block.count; index += 1) {
    if (nameIsOneOf(block.bytes, wanted)) return true;
    skipField(block.bytes);
  }
  return false;
}

/**
 * The headers of a block but those of `replaced` (a record's own headers, which take their place),
 * as runs of the block's bytes: the whole block when none is replaced, the usual case.
 */
export function headersWithout(block: EncodedHeaders, replaced: HeaderNames): HeaderRuns {
  const { bytes, start, end, count } = block;
  if (replaced.names.length === 0) return { bytes, bounds: [start, end], count };
  const bounds: number[] = [];
  let kept = 0;
  let runStart = start;
  cursor = start;
  for (let index = 0; index < count; index += 1) {
    const headerStart = cursor;
    const isReplaced = nameIsOneOf(bytes, replaced);
    skipField(bytes);
    if (!isReplaced) {
      kept += 1;
      continue;
    }
    if (headerStart > runStart) bounds.push(runStart, headerStart);
    runStart = cursor;
  }
  if (cursor > runStart) bounds.push(runStart, cursor);
  return { bytes, bounds, count: kept };
}

/**
 * A fetched record as kafkajs's record decoder returns it, field for field, but for its headers:
 * their bytes are walked over when the record is decoded (a malformed record fails there, as in
 * kafkajs) and decoded when first asked for, either as kafkajs hands them over (`headers`, a Buffer
 * per value) or as Baton reads them (`headerStrings`, a string per name, straight from the bytes).
 * A Baton record has ten to fourteen headers, and the consumers of a router and an agent made a
 * Buffer of every name and value, then a string of each, for every record: record decoding was a
 * tenth of their busy time under load. kafkajs itself never reads a record's headers.
 */
export class FetchedRecord implements DecodedRecord {
  readonly #bytes: Buffer;
  readonly #keyAt: number;
  /** -1: a null key. */
  readonly #keyLength: number;
  #key: Buffer | null | undefined;
  readonly #headersAt: number;
  readonly #headersEnd: number;
  readonly #headerCount: number;
  #headers: Record<string, HeaderValue | HeaderValue[]> | undefined;

  constructor(
    readonly magicByte: number | undefined,
    readonly attributes: number,
    readonly timestamp: string,
    readonly offset: string,
    readonly value: Buffer | null,
    readonly isControlRecord: boolean,
    readonly batchContext: RecordBatchContext,
    bytes: Buffer,
    keyAt: number,
    keyLength: number,
    headersAt: number,
    headersEnd: number,
    headerCount: number,
  ) {
    this.#bytes = bytes;
    this.#keyAt = keyAt;
    this.#keyLength = keyLength;
    this.#headersAt = headersAt;
    this.#headersEnd = headersEnd;
    this.#headerCount = headerCount;
  }

  /**
   * kafkajs's key, a view of the fetched bytes made when first asked for: Baton's consumers read
   * the key as a string (keyString), and a Buffer made of it for every record was an allocation
   * and a call into C++ for nothing.
   */
  get key(): Buffer | null {
    if (this.#key === undefined) {
      this.#key = this.#keyLength < 0 ? null : this.#bytes.subarray(this.#keyAt, this.#keyAt + this.#keyLength);
    }
    return this.#key;
  }

  /** The key as a UTF-8 string, read from the bytes; null for a null key. */
  keyString(): string | null {
    if (this.#keyLength < 0) return null;
    return this.#bytes.toString('utf8', this.#keyAt, this.#keyAt + this.#keyLength);
  }

  /** kafkajs's headers: a Buffer per value (null for a null one), a repeated name as an array of its values in order. */
  get headers(): Record<string, HeaderValue | HeaderValue[]> {
    this.#headers ??= decodeHeaderBlock(this.#bytes, this.#headersAt, this.#headerCount);
    return this.#headers;
  }

  /**
   * Where the headers lie in the fetched bytes: `byteOffset` and `byteLength` within `buffer`, the
   * memory that the value (and every record of the fetch) is a view of. A reader that keeps these
   * numbers rather than this record lets the record go once it has been read.
   */
  get headerBytes(): { buffer: ArrayBufferLike; byteOffset: number; byteLength: number; count: number } {
    return {
      buffer: this.#bytes.buffer,
      byteOffset: this.#bytes.byteOffset + this.#headersAt,
      byteLength: this.#headersEnd - this.#headersAt,
      count: this.#headerCount,
    };
  }

  /**
   * One header's value as a UTF-8 string, read without decoding the others: of a repeated header
   * the last value, as the Java client's lastHeader; undefined when absent or null.
   */
  headerString(name: string): string | undefined {
    return headerStringAt(this.#bytes, this.#headersAt, this.#headerCount, name);
  }

  /**
   * The headers as UTF-8 strings, one per name: of a repeated header the last value, as the Java
   * client's lastHeader; a null value is no value.
   */
  headerStrings(): Record<string, string> {
    return headerStringsAt(this.#bytes, this.#headersAt, this.#headerCount);
  }
}

/** The value of header `name` among the `count` headers at `at` in `bytes`, as FetchedRecord.headerString. */
export function headerStringAt(bytes: Buffer, at: number, count: number, name: string): string | undefined {
  const wanted = Buffer.byteLength(name);
  let found: string | undefined;
  cursor = at;
  for (let index = 0; index < count; index += 1) {
    const nameLength = skipField(bytes);
    const matches = isNameAt(bytes, cursor - Math.max(nameLength, 0), nameLength, name, wanted);
    const valueLength = skipField(bytes);
    if (matches) found = valueLength < 0 ? undefined : bytes.toString('utf8', cursor - valueLength, cursor);
  }
  return found;
}

/** The `count` headers at `at` in `bytes` as strings, as FetchedRecord.headerStrings. */
export function headerStringsAt(bytes: Buffer, at: number, count: number): Record<string, string> {
  const strings: Record<string, string> = {};
  cursor = at;
  for (let index = 0; index < count; index += 1) {
    const nameLength = skipField(bytes);
    const name = headerName(bytes, cursor - Math.max(nameLength, 0), nameLength, index);
    const valueLength = skipField(bytes);
    if (valueLength >= 0) setOwn(strings, name, bytes.toString('utf8', cursor - valueLength, cursor));
  }
  return strings;
}

/** One record of a batch, as kafkajs's record decoder returns it. */
export function decodeRecord(decoder: RecordDecoderInput, batchContext: RecordBatchContext): FetchedRecord {
  const { firstOffset, firstTimestamp, magicByte, isControlBatch = false, timestampType, maxTimestamp } = batchContext;
  const attributes = decoder.readInt8();
  const timestampDelta = readVarLong(decoder);
  const timestamp =
    timestampType === LOG_APPEND_TIME && maxTimestamp ? maxTimestamp : plus(firstTimestamp, timestampDelta);
  const offset = plus(firstOffset, decoder.readVarInt());
  const keyLength = decoder.readVarInt();
  const keyAt = decoder.offset;
  if (keyLength > 0) decoder.offset += keyLength;
  const value = decoder.readVarIntBytes();
  const headerCount = decoder.readVarInt();
  const { buffer } = decoder;
  const headersAt = decoder.offset;
  cursor = headersAt;
  for (let index = 0; index < headerCount; index += 1) {
    skipField(buffer);
    skipField(buffer);
  }
  decoder.offset = cursor;
  return new FetchedRecord(
    magicByte,
    attributes,
    timestamp,
    offset,
    value,
    isControlBatch,
    batchContext,
    buffer,
    keyAt,
    keyLength,
    headersAt,
    cursor,
    Math.max(headerCount, 0),
  );
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
