import { describe, expect, it } from 'vitest';
import { createKafka } from '../create-kafka.js';
import { kafkajsOriginal } from './kafkajs-original.test-helper.js';
import { readHeaders } from '../headers/record-headers.js';
import type { FetchedRecord } from './record-decoding.js';
import {
  decodeRecord,
  hasHeaderNamed,
  headerNames,
  kafkajsRecordDecoder,
  patchRecordDecoding,
  type RecordBatchContext,
  type RecordDecoderInput,
} from './record-decoding.js';

type DecoderClass = new (buffer: Buffer) => RecordDecoderInput;
type RecordEncoder = (record: {
  offsetDelta?: number;
  timestampDelta?: number;
  key: Buffer | string | null;
  value: Buffer | string | null;
  headers?: Record<string, string | Buffer | (string | Buffer)[]>;
}) => { buffer: Buffer };
type Decode = (decoder: RecordDecoderInput, context: RecordBatchContext) => unknown;

createKafka({ brokers: ['localhost:9092'], clientId: 'test' });
const Decoder = kafkajsOriginal<DecoderClass>('kafkajs/src/protocol/decoder.js');
const encodeRecord = kafkajsOriginal<RecordEncoder>('kafkajs/src/protocol/recordBatch/record/v0/index.js');
const kafkajsDecode = kafkajsOriginal<Decode>('kafkajs/src/protocol/recordBatch/record/v0/decoder.js');

/** A record's bytes as the batch decoder hands them over: its length read, the rest in a decoder of its own. */
function recordDecoder(record: Parameters<RecordEncoder>[0]): () => RecordDecoderInput {
  const bytes = encodeRecord(record).buffer;
  return () => new Decoder(new Decoder(bytes).readVarIntBytes() as Buffer);
}

const CONTEXT: RecordBatchContext = {
  firstOffset: '41',
  firstTimestamp: '1764000000123',
  maxTimestamp: '1764000000999',
  magicByte: 2,
  isControlBatch: false,
  timestampType: 0,
};

/** A decoded record as kafkajs's plain object: its fields, headers included (a FetchedRecord reads them when asked). */
function asKafkajsShape(record: FetchedRecord): Record<string, unknown> {
  const { magicByte, attributes, timestamp, offset, key, value, headers, isControlRecord, batchContext } = record;
  return { magicByte, attributes, timestamp, offset, key, value, headers, isControlRecord, batchContext };
}

describe("kafkajs's record decoding, fixed", () => {
  const cases: [string, Parameters<RecordEncoder>[0], RecordBatchContext][] = [
    ['no headers', { key: 'task-1', value: Buffer.from([0, 0, 0, 0, 7, 1, 2]) }, CONTEXT],
    [
      'a Baton record: fourteen headers',
      {
        offsetDelta: 17,
        key: 'task-1',
        value: Buffer.alloc(900, 3),
        headers: Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`ce_header_${i}`, `value ${i}`])),
      },
      CONTEXT,
    ],
    [
      'a header given two and three times',
      { key: 'k', value: 'v', headers: { twice: ['a', 'b'], thrice: ['x', Buffer.from('y'), 'z'], once: '1' } },
      CONTEXT,
    ],
    ['null key and value, empty header', { key: null, value: null, headers: { empty: '' } }, CONTEXT],
    ['an empty key', { key: '', value: 'v' }, CONTEXT],
    ['a negative timestamp delta', { timestampDelta: -5_000, offsetDelta: 3, key: 'k', value: 'v' }, CONTEXT],
    ['a timestamp delta past 2^53', { timestampDelta: 2 ** 60, key: 'k', value: 'v' }, CONTEXT],
    ['a delta past 49 bits', { timestampDelta: 2 ** 50 + 3, key: 'k', value: 'v' }, CONTEXT],
    [
      'offsets and timestamps past 2^53',
      { offsetDelta: 5, timestampDelta: 9, key: 'k', value: 'v' },
      { ...CONTEXT, firstOffset: '9007199254740993', firstTimestamp: '9223372036854775000' },
    ],
    ['no timestamp (-1)', { key: 'k', value: 'v' }, { ...CONTEXT, firstTimestamp: '-1' }],
    ['log append time', { timestampDelta: 12, key: 'k', value: 'v' }, { ...CONTEXT, timestampType: 1 }],
    ['a control batch', { key: 'k', value: 'v' }, { ...CONTEXT, isControlBatch: true }],
  ];

  it.each(cases)('returns what kafkajs returns: %s', (_, record, context) => {
    const decoderOf = recordDecoder(record);
    const theirs = kafkajsDecode(decoderOf(), context);
    const ours = decodeRecord(decoderOf(), context);
    expect(asKafkajsShape(ours)).toStrictEqual(theirs);
  });

  it.each(cases)("reads the key as a string as kafkajs's key reads: %s", (_, record, context) => {
    const decoderOf = recordDecoder(record);
    const theirs = kafkajsDecode(decoderOf(), context) as { key: Buffer | null };
    expect(decodeRecord(decoderOf(), context).keyString()).toBe(theirs.key?.toString() ?? null);
  });

  it.each(cases)("reads the headers as strings as readHeaders reads kafkajs's: %s", (_, record, context) => {
    const decoderOf = recordDecoder(record);
    const theirs = kafkajsDecode(decoderOf(), context) as { headers: Parameters<typeof readHeaders>[0] };
    expect(decodeRecord(decoderOf(), context).headerStrings()).toStrictEqual(readHeaders(theirs.headers));
  });

  it.each(cases)("reads one header as readHeaders reads it from kafkajs's, and no other: %s", (_, record, context) => {
    const decoderOf = recordDecoder(record);
    const kafkajsHeaders = (kafkajsDecode(decoderOf(), context) as { headers: Parameters<typeof readHeaders>[0] })
      .headers;
    const theirs = readHeaders(kafkajsHeaders);
    const ours = decodeRecord(decoderOf(), context);
    for (const name of Object.keys(theirs)) expect(ours.headerString(name)).toBe(theirs[name]);
    expect(ours.headerString('absent')).toBeUndefined();
    expect(ours.headerString('ce_header_1x')).toBeUndefined();
  });

  it('finds whether a header block holds one of some names, without decoding it', () => {
    const { buffer, byteOffset, byteLength, count } = decodeRecord(
      recordDecoder({ key: 'k', value: 'v', headers: { ce_id: '1', 'baton.route.rule': 'r', nämé: 'x' } })(),
      CONTEXT,
    ).headerBytes;
    const block = { bytes: Buffer.from(buffer), start: byteOffset, end: byteOffset + byteLength, count };
    const has = (...names: string[]) => hasHeaderNamed(block, headerNames(names));
    expect([has('baton.route.rule'), has('nämé'), has('ce_id', 'absent')]).toStrictEqual([true, true, true]);
    expect([has('baton.route.target', 'ce_i', 'ce_idx', 'name'), has()]).toStrictEqual([false, false]);
    const record = decodeRecord(recordDecoder({ key: 'k', value: 'v', headers: { nämé: 'x', nä: 'y' } })(), CONTEXT);
    expect([record.headerString('nämé'), record.headerString('nä'), record.headerString('nam')]).toStrictEqual([
      'x',
      'y',
      undefined,
    ]);
  });

  it("reads each record's own header names, whatever the record before it had in their place", () => {
    const names = ['ce_id', 'ce_ie', 'ce_i', 'ce_idx', 'cé_id', 'ce_id'];
    const decoded = names.map((name, index) =>
      decodeRecord(
        recordDecoder({ key: 'k', value: 'v', headers: { [name]: `value ${index}`, second: 'x' } })(),
        CONTEXT,
      ),
    );
    expect(decoded.map((record) => record.headerStrings())).toStrictEqual(
      names.map((name, index) => ({ [name]: `value ${index}`, second: 'x' })),
    );
    expect(decoded.map((record) => Object.keys(record.headers))).toStrictEqual(names.map((name) => [name, 'second']));
  });

  it("takes a null header value for no value in strings, and for null in kafkajs's headers", () => {
    // kafkajs's encoder cannot write a null header value; the bytes are written here: key "k", value
    // "v", two headers, "gone" with length -1 and "kept" with "1".
    const bytes = Buffer.from([
      0,
      0,
      0,
      2,
      0x6b,
      2,
      0x76,
      4,
      8,
      ...Buffer.from('gone'),
      1,
      8,
      ...Buffer.from('kept'),
      2,
      0x31,
    ]);
    const record = decodeRecord(new Decoder(bytes), CONTEXT);
    expect(record.headers).toStrictEqual({ gone: null, kept: Buffer.from('1') });
    expect(record.headerStrings()).toStrictEqual({ kept: '1' });
    expect([record.headerString('gone'), record.headerString('kept')]).toStrictEqual([undefined, '1']);
  });

  it('fails on a record whose headers run past its end when it is decoded, as kafkajs does', () => {
    const bytes = Buffer.from([0, 0, 0, 2, 0x6b, 2, 0x76, 2, 8, ...Buffer.from('gone'), 20, 0x31]);
    expect(() => decodeRecord(new Decoder(bytes), CONTEXT)).toThrow(RangeError);
  });

  it('leaves its decoder where kafkajs leaves it', () => {
    const decoderOf = recordDecoder({ timestampDelta: 2 ** 60, key: 'k', value: 'v', headers: { a: ['1', '2'] } });
    const theirs = decoderOf();
    const ours = decoderOf();
    kafkajsDecode(theirs, CONTEXT);
    decodeRecord(ours, CONTEXT);
    expect(ours.offset).toBe(theirs.offset);
  });

  it('reads headers named like Object.prototype members as their values, where kafkajs made [member, value]', () => {
    const decoderOf = recordDecoder({
      key: 'k',
      value: 'v',
      headers: { constructor: 'c', toString: 't', ['__proto__']: '_' },
    });
    const theirs = kafkajsDecode(decoderOf(), CONTEXT) as { headers: Record<string, unknown> };
    expect(Array.isArray(theirs.headers.toString)).toBe(true);
    const ours = decodeRecord(decoderOf(), CONTEXT);
    expect(Object.getPrototypeOf(ours.headers)).toBe(Object.prototype);
    expect(Object.entries(ours.headerStrings())).toStrictEqual([
      ['constructor', 'c'],
      ['toString', 't'],
      ['__proto__', '_'],
    ]);
    expect(Object.entries(ours.headers)).toStrictEqual([
      ['constructor', Buffer.from('c')],
      ['toString', Buffer.from('t')],
      ['__proto__', Buffer.from('_')],
    ]);
  });

  it('is what kafkajs decodes fetched records with, once @baton/kafka is loaded', () => {
    expect(patchRecordDecoding().status).toBe('applied');
    expect(kafkajsRecordDecoder()).toBe(decodeRecord);
  });
});
