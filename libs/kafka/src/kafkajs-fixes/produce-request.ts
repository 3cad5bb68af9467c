import { crc32c } from './crc32c.js';
import { decodeHeaderBlock, headersWithout, type EncodedHeaders, type HeaderNames } from './record-decoding.js';
import { kafkajsModuleExports, replaceBeforeKafkajsLoads, type ModuleReplacement } from './module-replacement.js';

/**
 * kafkajs 2.2.4 builds a produce request in layers, each an Encoder of its own copied into the
 * next: every header into its record, every record into the batch, the batch into its partition,
 * the partition into its topic, the topic into the request body, the body into the request, and
 * the request behind its size (src/protocol/requests/produce/v3/request.js, recordBatch/v0,
 * recordBatch/record/v0, recordBatch/header/v0, protocol/request.js). A record's bytes are copied
 * six times, and each record's timestamp delta is written through 64-bit Long arithmetic. In a
 * router profile under load this encoding was a fifth of the busy time, and much of the garbage
 * collection after it.
 *
 * This replacement writes the request body into one buffer sized in advance: the sizes first (the
 * same varint and UTF-8 lengths kafkajs computes), then every field in place, and the batch's
 * CRC-32C (crc32c.ts: kafkajs's checksum, eight bytes at a time). The request header is written
 * before the body with one copy. The bytes are kafkajs's, byte for byte (a unit test compares them on many shapes of
 * records). What it does not cover goes to kafkajs's own encoder unchanged: compressed batches, and
 * messages with timestamps of their own or header values other than strings and Buffers (Baton's
 * producers set neither). A message may also carry headers already encoded (`encodedHeaders`: a
 * fetched record's, which the router sends on, or an outcome event's, encoded when it was made):
 * they are copied as they are, before its own, which replace those of their names unless the
 * message says none is among them (`headersAdded`); kafkajs's encoder, which knows nothing of
 * them, gets them decoded.
 *
 * Both modules are taken lazily (v4 to v7 of the produce request wrap v3's when a producer first
 * sends) or when kafkajs loads (the request envelope, by the connection), so this module is
 * imported by @baton/kafka before kafkajs itself, after produce-encoding.ts. Not an upstream fix:
 * Baton's. Tied to the pinned version like the other fixes.
 */

type HeaderValue = string | Buffer;
type Headers = Record<string, HeaderValue | HeaderValue[] | undefined>;

export interface ProduceMessage {
  key?: Buffer | string | null;
  value: Buffer | string | null;
  /** Written first, as they are, but those `headers` names: Baton's, not kafkajs's (OutputRecord.encodedHeaders). */
  encodedHeaders?: EncodedHeaders;
  /** No name of `headers` is among `encodedHeaders` (OutputRecord.headersAdded). */
  headersAdded?: boolean;
  headers?: Headers;
  timestamp?: number | string;
}

interface PartitionData {
  partition: number;
  firstSequence?: number;
  messages: ProduceMessage[];
}

interface TopicData {
  topic: string;
  partitions: PartitionData[];
}

interface LongLike {
  getHighBits(): number;
  getLowBits(): number;
}

type LongValue = number | string | LongLike;

export interface ProduceRequestArgs {
  acks: number;
  timeout: number;
  transactionalId?: string | null;
  producerId?: LongValue;
  producerEpoch?: number;
  compression?: number;
  topicData: TopicData[];
}

interface KafkajsEncoder {
  buf: Buffer;
  offset: number;
}

interface ProduceRequest {
  apiKey: number;
  apiVersion: number;
  apiName: string;
  expectResponse(): boolean;
  encode(): Promise<KafkajsEncoder>;
}

/** What kafkajs's modules need from one another: its Long and Encoder. */
export interface KafkajsParts {
  Encoder: new (initialSize?: number) => KafkajsEncoder;
  fromLongValue(value: LongValue): LongLike;
}

const NO_COMPRESSION = 0;
const MAGIC_BYTE = 2;
const TRANSACTIONAL_ATTRIBUTE = 16;
/** firstOffset, length, partitionLeaderEpoch, magic, crc: the batch's bytes before the CRC's range. */
const BATCH_HEAD_BYTES = 8 + 4 + 4 + 1 + 4;
/** attributes, lastOffsetDelta, firstTimestamp, maxTimestamp, producerId, producerEpoch, firstSequence, count. */
const BATCH_FIELDS_BYTES = 2 + 4 + 8 + 8 + 8 + 2 + 4 + 4;

function zigZag(value: number): number {
  return ((value << 1) ^ (value >> 31)) >>> 0;
}

/** Writes `value` as a zigzag varint at `offset`; returns the offset after it. */
export function writeVarInt(buffer: Buffer, value: number, offset: number): number {
  let rest = zigZag(value);
  let at = offset;
  while ((rest & 0xffffff80) !== 0) {
    buffer[at++] = (rest & 0x7f) | 0x80;
    rest >>>= 7;
  }
  buffer[at++] = rest;
  return at;
}

export function sizeOfVarInt(value: number): number {
  let rest = zigZag(value);
  let bytes = 1;
  while ((rest & 0xffffff80) !== 0) {
    bytes += 1;
    rest >>>= 7;
  }
  return bytes;
}

function isHeaderValue(value: unknown): value is HeaderValue {
  return typeof value === 'string' || Buffer.isBuffer(value);
}

/**
 * Appends each header's name and value to `fields` in kafkajs's order (an array's values one after
 * another under the same name); false when a value is neither a string nor a Buffer. No pair or
 * array per header: a Baton record has ten or more, and a transaction a thousand records.
 */
function appendHeaders(fields: Field[], headers: Headers | undefined): boolean {
  if (headers === undefined) return true;
  for (const name in headers) {
    if (!Object.hasOwn(headers, name)) continue;
    const value = headers[name];
    if (!Array.isArray(value)) {
      if (!isHeaderValue(value)) return false;
      fields.push(name, value);
      continue;
    }
    for (const each of value) {
      if (!isHeaderValue(each)) return false;
      fields.push(name, each);
    }
  }
  return true;
}

/** A key or value kafkajs writes as it is (null as -1); undefined for one it does not size (it throws). */
function bytesOf(value: unknown): Buffer | string | null | undefined {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' || Buffer.isBuffer(value) ? value : undefined;
}

type Field = Buffer | string | null;

/**
 * A record measured: its key, value, then each header's name and value, in the order written, with
 * each one's byte length (-1 for null), measured once for the sizing and the writing; and its size
 * after the length varint.
 */
interface SizedRecord {
  fields: Field[];
  lengths: number[];
  /** Runs of an encoded header block, copied before the fields' headers: `bounds` of `block`. */
  block: Buffer | undefined;
  bounds: readonly number[];
  headerCount: number;
  bodyBytes: number;
}

const NO_BOUNDS: readonly number[] = [];

const NO_NAMES: HeaderNames = { names: [], lengths: [] };

/** The header names among `fields` (after the key and the value) and their UTF-8 lengths. */
function ownHeaderNames(fields: readonly Field[], lengths: readonly number[]): HeaderNames {
  if (fields.length === 2) return NO_NAMES;
  const names: string[] = [];
  const nameLengths: number[] = [];
  for (let field = 2; field < fields.length; field += 2) {
    names.push(fields[field] as string);
    nameLengths.push(lengths[field] as number);
  }
  return { names, lengths: nameLengths };
}

/**
 * Strings up to this many characters are measured and written by a loop here when they are ASCII.
 * A record's header names and most of its values are short ASCII strings (a Baton record has ten
 * or more headers), and Buffer's native byteLength and write cost a call into C++ each: on the
 * 2-core VM the bench runs on, 76 and 351 ns for a 20-character header, against 52 and 121 ns here.
 */
const SHORT_STRING = 64;

/** The UTF-8 length of `value`: its length when it is short ASCII, which most header values are. */
export function utf8Length(value: string): number {
  const length = value.length;
  if (length > SHORT_STRING) return Buffer.byteLength(value, 'utf8');
  for (let index = 0; index < length; index += 1) {
    if (value.charCodeAt(index) > 0x7f) return Buffer.byteLength(value, 'utf8');
  }
  return length;
}

/**
 * Writes `value`, of UTF-8 length `length`, at `offset`; returns the bytes written. A string whose
 * UTF-8 length is its length is ASCII (any other character takes two bytes or more).
 */
export function writeUtf8(buffer: Buffer, value: string, offset: number, length: number): number {
  if (length !== value.length || length > SHORT_STRING) return buffer.write(value, offset, length, 'utf8');
  for (let index = 0; index < length; index += 1) buffer[offset + index] = value.charCodeAt(index);
  return length;
}

function byteLength(value: Field): number {
  if (value === null) return -1;
  return typeof value === 'string' ? utf8Length(value) : value.length;
}

/** The records of a partition measured, or undefined when kafkajs's own encoder must write them. */
function sizedRecords(messages: readonly ProduceMessage[]): SizedRecord[] | undefined {
  const sized: SizedRecord[] = [];
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index] as ProduceMessage;
    if (message.timestamp !== undefined && message.timestamp !== null) return undefined;
    const key = bytesOf(message.key);
    const value = bytesOf(message.value);
    if (key === undefined || value === undefined) return undefined;
    const fields: Field[] = [key, value];
    if (!appendHeaders(fields, message.headers)) return undefined;
    const lengths: number[] = new Array<number>(fields.length);
    let fieldBytes = 0;
    for (let field = 0; field < fields.length; field += 1) {
      const length = byteLength(fields[field] as Field);
      lengths[field] = length;
      fieldBytes += sizeOfVarInt(length) + Math.max(length, 0);
    }
    let headerCount = (fields.length - 2) / 2;
    let bounds = NO_BOUNDS;
    let blockBytes: Buffer | undefined;
    const block = message.encodedHeaders;
    if (block !== undefined && block.count > 0) {
      const kept = headersWithout(block, message.headersAdded === true ? NO_NAMES : ownHeaderNames(fields, lengths));
      blockBytes = kept.bytes;
      bounds = kept.bounds;
      headerCount += kept.count;
      for (let run = 0; run < bounds.length; run += 2)
        fieldBytes += (bounds[run + 1] as number) - (bounds[run] as number);
    }
    // attributes, timestampDelta 0, offsetDelta, header count, then each field behind its length.
    const bodyBytes = 1 + 1 + sizeOfVarInt(index) + sizeOfVarInt(headerCount) + fieldBytes;
    sized.push({ fields, lengths, block: blockBytes, bounds, headerCount, bodyBytes });
  }
  return sized;
}

/** Writes into one buffer, front to back. */
class Writer {
  offset = 0;

  constructor(readonly buffer: Buffer) {}

  int8(value: number): void {
    this.offset = this.buffer.writeInt8(value, this.offset);
  }

  int16(value: number): void {
    this.offset = this.buffer.writeInt16BE(value, this.offset);
  }

  int32(value: number): void {
    this.offset = this.buffer.writeInt32BE(value, this.offset);
  }

  int64(value: LongLike): void {
    this.int32(value.getHighBits());
    this.int32(value.getLowBits());
  }

  varInt(value: number): void {
    this.offset = writeVarInt(this.buffer, value, this.offset);
  }

  /** A STRING or NULLABLE_STRING: int16 length (-1 for null), then UTF-8. */
  string(value: string | null | undefined): void {
    if (value === null || value === undefined) {
      this.int16(-1);
      return;
    }
    const length = utf8Length(value);
    this.int16(length);
    this.offset += writeUtf8(this.buffer, value, this.offset, length);
  }

  /** `length` as a varint (-1 for null), then the bytes: `length` is the value's byte length. */
  varBytes(value: Field, length: number): void {
    this.varInt(length);
    if (value === null) return;
    if (typeof value === 'string') this.offset += writeUtf8(this.buffer, value, this.offset, length);
    else this.offset += value.copy(this.buffer, this.offset);
  }
}

function stringBytes(value: string | null | undefined): number {
  return 2 + (value === null || value === undefined ? 0 : utf8Length(value));
}

function recordsBytes(records: readonly SizedRecord[]): number {
  let bytes = 0;
  for (const record of records) bytes += sizeOfVarInt(record.bodyBytes) + record.bodyBytes;
  return bytes;
}

interface BatchContext {
  parts: KafkajsParts;
  transactional: boolean;
  producerId: LongLike;
  producerEpoch: number;
  now: LongLike;
}

function writeBatch(
  writer: Writer,
  records: readonly SizedRecord[],
  firstSequence: number,
  context: BatchContext,
): void {
  const batchBytes = BATCH_HEAD_BYTES + BATCH_FIELDS_BYTES + recordsBytes(records);
  // The record set's size: the whole batch, its firstOffset and length fields included.
  writer.int32(batchBytes);
  const start = writer.offset;
  writer.int32(0);
  writer.int32(0); // firstOffset: 0, as int64
  writer.int32(batchBytes - 12); // length: what follows it
  writer.int32(0); // partitionLeaderEpoch
  writer.int8(MAGIC_BYTE);
  const crcAt = writer.offset;
  writer.offset += 4;
  writer.int16(context.transactional ? TRANSACTIONAL_ATTRIBUTE : 0);
  writer.int32(records.length - 1);
  writer.int64(context.now); // firstTimestamp
  writer.int64(context.now); // maxTimestamp
  writer.int64(context.producerId);
  writer.int16(context.producerEpoch);
  writer.int32(firstSequence);
  writer.int32(records.length);
  for (let index = 0; index < records.length; index += 1) {
    const record = records[index] as SizedRecord;
    writer.varInt(record.bodyBytes);
    writer.int8(0); // attributes
    writer.varInt(0); // timestampDelta: every record has the batch's timestamp
    writer.varInt(index);
    const { fields, lengths } = record;
    writer.varBytes(fields[0] as Field, lengths[0] as number);
    writer.varBytes(fields[1] as Field, lengths[1] as number);
    writer.varInt(record.headerCount);
    const { block, bounds } = record;
    for (let run = 0; run < bounds.length; run += 2) {
      writer.offset += (block as Buffer).copy(writer.buffer, writer.offset, bounds[run], bounds[run + 1]);
    }
    for (let field = 2; field < fields.length; field += 1) {
      writer.varBytes(fields[field] as Field, lengths[field] as number);
    }
  }
  const crc = crc32c(writer.buffer.subarray(crcAt + 4, start + batchBytes));
  writer.buffer.writeUInt32BE(crc >>> 0, crcAt);
}

/** The produce request body of `args` in one buffer; undefined when kafkajs's own encoder must write it. */
export function encodeProduceBody(args: ProduceRequestArgs, parts: KafkajsParts, now: number): Buffer | undefined {
  if ((args.compression ?? NO_COMPRESSION) !== NO_COMPRESSION) return undefined;
  const transactionalId = args.transactionalId ?? null;
  const measured: { topic: string; partitions: { data: PartitionData; records: SizedRecord[] }[] }[] = [];
  let bytes = stringBytes(transactionalId) + 2 + 4 + 4;
  for (const topicData of args.topicData) {
    const partitions: { data: PartitionData; records: SizedRecord[] }[] = [];
    bytes += stringBytes(topicData.topic) + 4;
    for (const data of topicData.partitions) {
      const records = sizedRecords(data.messages);
      if (records === undefined) return undefined;
      partitions.push({ data, records });
      bytes += 4 + 4 + BATCH_HEAD_BYTES + BATCH_FIELDS_BYTES + recordsBytes(records);
    }
    measured.push({ topic: topicData.topic, partitions });
  }
  const writer = new Writer(Buffer.allocUnsafe(bytes));
  writer.string(transactionalId);
  writer.int16(args.acks);
  writer.int32(args.timeout);
  writer.int32(measured.length);
  const context: BatchContext = {
    parts,
    // As kafkajs tells: an empty transactional id is no transaction.
    transactional: Boolean(transactionalId),
    producerId: parts.fromLongValue(args.producerId ?? -1),
    producerEpoch: args.producerEpoch ?? 0,
    now: parts.fromLongValue(now),
  };
  for (const { topic, partitions } of measured) {
    writer.string(topic);
    writer.int32(partitions.length);
    for (const { data, records } of partitions) {
      writer.int32(data.partition);
      writeBatch(writer, records, data.firstSequence ?? 0, context);
    }
  }
  if (writer.offset !== bytes) throw new Error(`produce request measured ${bytes} bytes, wrote ${writer.offset}`);
  return writer.buffer;
}

/**
 * Before kafkajs's own encoder writes a request (compressed, or with a record it must write
 * itself), which knows nothing of encoded header blocks: each message's block becomes headers of
 * its own, under those it names itself, as the one-pass encoder writes them.
 */
function decodeHeaderBlocks(args: ProduceRequestArgs): void {
  for (const { partitions } of args.topicData) {
    for (const { messages } of partitions) {
      for (const message of messages) {
        const block = message.encodedHeaders;
        if (block === undefined) continue;
        const headers: Headers = {};
        for (const [name, value] of Object.entries(decodeHeaderBlock(block.bytes, block.start, block.count))) {
          // kafkajs writes no null header value: a null one is dropped.
          const values = (Array.isArray(value) ? value : [value]).filter((each): each is Buffer => each !== null);
          if (values.length > 0) headers[name] = values.length === 1 ? values[0] : values;
        }
        message.headers = { ...headers, ...message.headers };
        message.encodedHeaders = undefined;
      }
    }
  }
}

/** An Encoder of kafkajs's holding `buffer` as what it has written. */
function encoderOf(parts: KafkajsParts, buffer: Buffer): KafkajsEncoder {
  const encoder = new parts.Encoder(0);
  encoder.buf = buffer;
  encoder.offset = buffer.length;
  return encoder;
}

type ProduceRequestV3 = (args: ProduceRequestArgs) => ProduceRequest;

/** The produce request v3 module's function, writing in one pass and falling back to `original`. */
export function onePassProduceRequest(original: ProduceRequestV3, parts: KafkajsParts): ProduceRequestV3 {
  return (args) => {
    const request = original(args);
    return {
      ...request,
      encode: async () => {
        const body = encodeProduceBody(args, parts, Date.now());
        if (body !== undefined) return encoderOf(parts, body);
        decodeHeaderBlocks(args);
        return request.encode();
      },
    };
  };
}

interface EnvelopeArgs {
  correlationId: number;
  clientId: string | null | undefined;
  request: { apiKey: number; apiVersion: number; encode(): Promise<KafkajsEncoder> };
}

/** src/protocol/request.js: the request header, then the body, behind the size; one copy of the body. */
export function oneCopyRequestEnvelope(parts: KafkajsParts): (args: EnvelopeArgs) => Promise<KafkajsEncoder> {
  return async ({ correlationId, clientId, request: { apiKey, apiVersion, encode } }) => {
    const payload = await encode();
    const size = 2 + 2 + 4 + stringBytes(clientId) + payload.offset;
    const writer = new Writer(Buffer.allocUnsafe(4 + size));
    writer.int32(size);
    writer.int16(apiKey);
    writer.int16(apiVersion);
    writer.int32(correlationId);
    writer.string(clientId);
    payload.buf.copy(writer.buffer, writer.offset, 0, payload.offset);
    return encoderOf(parts, writer.buffer);
  };
}

const PRODUCE_V3_MODULE = 'kafkajs/src/protocol/requests/produce/v3/request.js';
const ENVELOPE_MODULE = 'kafkajs/src/protocol/request.js';
/** The modules that take the two: the connection (the envelope), the later produce versions (v3). */
const TAKERS = ['kafkajs/src/network/connection.js', 'kafkajs/src/protocol/requests/produce/v4/request.js'];

/** kafkajs's own Encoder (as produce-encoding.ts leaves it) and Long. */
export function kafkajsParts(): KafkajsParts {
  const Long = kafkajsModuleExports('kafkajs/src/utils/long.js') as { fromValue(value: LongValue): LongLike };
  return {
    Encoder: kafkajsModuleExports('kafkajs/src/protocol/encoder.js') as KafkajsParts['Encoder'],
    fromLongValue: (value) => Long.fromValue(value),
  };
}

let outcome: ModuleReplacement | undefined;

/** Puts both in kafkajs's place, before kafkajs loads. Idempotent. */
export function patchProduceRequest(): ModuleReplacement {
  outcome ??= replaceBeforeKafkajsLoads('produce request', TAKERS, (original) => {
    const parts = kafkajsParts();
    return {
      [PRODUCE_V3_MODULE]: onePassProduceRequest(original(PRODUCE_V3_MODULE) as ProduceRequestV3, parts),
      [ENVELOPE_MODULE]: oneCopyRequestEnvelope(parts),
    };
  });
  return outcome;
}

/** What kafkajs's modules get for `module` now (tests compare it with the replacements). */
export function kafkajsProduceModule(module: 'produce-v3' | 'envelope'): unknown {
  return kafkajsModuleExports(module === 'produce-v3' ? PRODUCE_V3_MODULE : ENVELOPE_MODULE);
}

patchProduceRequest();
