import { afterEach, describe, expect, it, vi } from 'vitest';
import { createKafka } from '../create-kafka.js';
import { kafkajsOriginal } from './kafkajs-original.test-helper.js';
import {
  encodeProduceBody,
  kafkajsParts,
  kafkajsProduceModule,
  oneCopyRequestEnvelope,
  onePassProduceRequest,
  patchProduceRequest,
  type ProduceMessage,
  type ProduceRequestArgs,
} from './produce-request.js';
import type { KafkaMessage } from 'kafkajs';
import { consumedRecord } from '../consumer/consumed-record.js';
import { decodeRecord, type EncodedHeaders, type RecordDecoderInput } from './record-decoding.js';

interface Encoded {
  buffer: Buffer;
}
type ProduceV3 = (args: ProduceRequestArgs) => { encode(): Promise<Encoded> };
type Envelope = (args: {
  correlationId: number;
  clientId: string | null;
  request: { apiKey: number; apiVersion: number; encode(): Promise<unknown> };
}) => Promise<Encoded>;

const originalProduce = kafkajsOriginal<ProduceV3>('kafkajs/src/protocol/requests/produce/v3/request.js');
const originalEnvelope = kafkajsOriginal<Envelope>('kafkajs/src/protocol/request.js');
const parts = kafkajsParts();
const onePass = onePassProduceRequest(originalProduce as never, parts) as unknown as ProduceV3;
const oneCopy = oneCopyRequestEnvelope(parts) as unknown as Envelope;

afterEach(() => {
  vi.restoreAllMocks();
});

const NOW = 1_764_000_000_123;

type Headers = Record<string, string | Buffer | (string | Buffer)[]>;
const Decoder = kafkajsOriginal<new (buffer: Buffer) => RecordDecoderInput>('kafkajs/src/protocol/decoder.js');
const encodeRecord = kafkajsOriginal<(record: { key: string; value: string; headers: Headers }) => { buffer: Buffer }>(
  'kafkajs/src/protocol/recordBatch/record/v0/index.js',
);

/** `headers` in Kafka's record format, as a fetched record hands them over. */
function headerBlock(headers: Headers): EncodedHeaders {
  const record = new Decoder(
    new Decoder(encodeRecord({ key: 'k', value: 'v', headers }).buffer).readVarIntBytes() as Buffer,
  );
  const fetched = decodeRecord(record, { firstOffset: '0', firstTimestamp: '0' });
  return consumedRecord('t', 0, fetched as unknown as KafkaMessage).encodedHeaders as EncodedHeaders;
}

/** Two requests of one partition's messages: ours with encoded header blocks, kafkajs's with the headers they stand for. */
function blockArgs(
  messages: ProduceMessage[],
  expected: ProduceMessage[],
  compression?: number,
): [ProduceRequestArgs, ProduceRequestArgs] {
  const args = (each: ProduceMessage[]) => ({
    ...base,
    compression,
    transactionalId: 'router.inbound.0',
    producerId: 9,
    producerEpoch: 2,
    topicData: [{ topic: 'inbox', partitions: [{ partition: 1, firstSequence: 3, messages: each }] }],
  });
  return [args(messages), args(expected)];
}

/** Both encoders' whole requests (envelope included) for `args`, at one frozen clock. */
async function bothRequests(args: ProduceRequestArgs, writtenInOnePass = true): Promise<[Buffer, Buffer]> {
  vi.spyOn(Date, 'now').mockReturnValue(NOW);
  const envelope = (request: { encode(): Promise<unknown> }) => ({
    correlationId: 4711,
    clientId: 'router-1',
    request: { apiKey: 0, apiVersion: 7, encode: () => request.encode() },
  });
  // Which of the two wrote ours: the one-pass encoder, or kafkajs's own behind it.
  expect(encodeProduceBody(args, parts, NOW) instanceof Buffer).toBe(writtenInOnePass);
  const theirs = await originalEnvelope(envelope(originalProduce(args)));
  const ours = await oneCopy(envelope(onePass(args)) as never);
  return [ours.buffer, theirs.buffer];
}

const base = { acks: -1, timeout: 30_000 };

describe("kafkajs's produce request, written in one pass", () => {
  it('writes the bytes kafkajs writes for a transaction of records with keys, values and headers', async () => {
    const [ours, theirs] = await bothRequests({
      ...base,
      transactionalId: 'router.inbound.3',
      producerId: '123456789012345',
      producerEpoch: 3,
      topicData: [
        {
          topic: 'baton.agent.sales_agent.inbox',
          partitions: [
            {
              partition: 3,
              firstSequence: 7,
              messages: [
                {
                  key: 'task-1',
                  value: Buffer.from([0, 0, 0, 0, 1, 2, 3]),
                  headers: { ce_id: 'm-1', ce_type: 'ESCALATION', 'baton.route.rule': 'r1' },
                },
                { key: 'task-2', value: 'ü ✓ text', headers: {} },
              ],
            },
          ],
        },
      ],
    });
    expect(ours.equals(theirs)).toBe(true);
  });

  it('writes the bytes kafkajs writes for null keys and values, header arrays and Buffers, many topics and partitions', async () => {
    const [ours, theirs] = await bothRequests({
      ...base,
      acks: 1,
      transactionalId: null,
      topicData: [
        {
          topic: 'a',
          partitions: [
            { partition: 0, messages: [{ key: null, value: null }] },
            {
              partition: 5,
              messages: [
                { value: 'v', headers: { many: ['one', Buffer.from('two'), 'drei ✓'], bytes: Buffer.alloc(3, 7) } },
              ],
            },
          ],
        },
        { topic: 'b.ü', partitions: [{ partition: 1, messages: [] }] },
      ],
    });
    expect(ours.equals(theirs)).toBe(true);
  });

  it('writes the bytes kafkajs writes for hundreds of records and values past a varint byte', async () => {
    const messages = Array.from({ length: 300 }, (_, index) => ({
      key: `task-${index % 17}`,
      value: Buffer.alloc(index * 97, index % 251),
      headers: { ce_id: `id-${index}`, long: 'x'.repeat(index) },
    }));
    const [ours, theirs] = await bothRequests({
      ...base,
      transactionalId: 'tx',
      producerId: 42,
      producerEpoch: 0,
      topicData: [{ topic: 'big', partitions: [{ partition: 2, firstSequence: 1_000_000, messages }] }],
    });
    expect(ours.equals(theirs)).toBe(true);
  });

  it('writes the bytes kafkajs writes for strings ASCII or not, on both sides of the short-string length', async () => {
    // Short ASCII strings are measured and written without Buffer's native calls; every other one with them.
    const strings = ['', 'a', 'ü', 'é-task', '€', '😀', '\ud800', 'x'.repeat(63), 'x'.repeat(64), 'x'.repeat(65)];
    strings.push(...strings.map((text) => `${'y'.repeat(60)}${text}`));
    const messages = strings.map((text, index) => ({
      key: text,
      value: text,
      headers: { [`h-${text}`]: text, [`n${index}`]: [text, Buffer.from(text)] },
    }));
    const [ours, theirs] = await bothRequests({
      ...base,
      transactionalId: 'tx-ü',
      producerId: 7,
      producerEpoch: 1,
      topicData: [{ topic: 'strings', partitions: [{ partition: 0, messages }] }],
    });
    expect(ours.equals(theirs)).toBe(true);
  });

  it("leaves to kafkajs's encoder what it does not cover: own timestamps, other header values, compression", async () => {
    for (const topicData of [
      [
        {
          topic: 't',
          partitions: [{ partition: 0, messages: [{ key: 'k', value: 'v', timestamp: 1_700_000_000_000 }] }],
        },
      ],
      [
        {
          topic: 't',
          partitions: [{ partition: 0, messages: [{ key: 'k', value: 'v', headers: { n: 5 as never } }] }],
        },
      ],
    ]) {
      const original = originalProduce({ ...base, topicData });
      const replaced = onePass({ ...base, topicData });
      expect(encodeProduceBody({ ...base, topicData }, parts, NOW)).toBeUndefined();
      vi.spyOn(Date, 'now').mockReturnValue(NOW);
      const theirs = await original.encode().then(
        (encoded) => encoded.buffer,
        (error: Error) => error.message,
      );
      const ours = await replaced.encode().then(
        (encoded) => encoded.buffer,
        (error: Error) => error.message,
      );
      expect(ours).toEqual(theirs);
    }
    const compressed = {
      ...base,
      compression: 1,
      topicData: [{ topic: 't', partitions: [{ partition: 0, messages: [{ key: 'k', value: 'v' }] }] }],
    };
    const [ours, theirs] = await bothRequests(compressed, false);
    expect(ours.equals(theirs)).toBe(true);
  });

  it("writes an encoded header block as it is, before the record's own headers, which replace those of their names", async () => {
    const fetched = { ce_id: 'm-1', ce_type: 'ESCALATION', traceparent: '00-aa-bb-01', nämé: 'ü', twice: ['1', '2'] };
    const [withBlocks, withHeaders] = blockArgs(
      [
        { key: 'task-1', value: Buffer.from('a'), encodedHeaders: headerBlock(fetched) },
        {
          key: 'task-2',
          value: Buffer.from('b'),
          encodedHeaders: headerBlock(fetched),
          headers: { traceparent: '00-cc-dd-01', 'baton.route.rule': 'r1', nämé: 'neu', twice: '3' },
        },
        { key: 'task-3', value: Buffer.from('c'), encodedHeaders: headerBlock({}), headers: { only: 'own' } },
      ],
      [
        { key: 'task-1', value: Buffer.from('a'), headers: fetched },
        {
          key: 'task-2',
          value: Buffer.from('b'),
          headers: {
            ce_id: 'm-1',
            ce_type: 'ESCALATION',
            traceparent: '00-cc-dd-01',
            'baton.route.rule': 'r1',
            nämé: 'neu',
            twice: '3',
          },
        },
        { key: 'task-3', value: Buffer.from('c'), headers: { only: 'own' } },
      ],
    );
    expect(encodeProduceBody(withBlocks, parts, NOW)).toBeInstanceOf(Buffer);
    vi.spyOn(Date, 'now').mockReturnValue(NOW);
    const ours = (await onePass(withBlocks).encode()).buffer;
    const theirs = (await originalProduce(withHeaders).encode()).buffer;
    expect(ours.equals(theirs)).toBe(true);
  });

  it('writes a block and headers said to be added as they are, one after the other', async () => {
    const [withBlocks, withHeaders] = blockArgs(
      [
        {
          key: 'task-1',
          value: Buffer.from('a'),
          encodedHeaders: headerBlock({ ce_id: 'e-1', ce_time: 't' }),
          headers: { ce_type: 'baton.outcome.ROUTED' },
          headersAdded: true,
        },
      ],
      [
        {
          key: 'task-1',
          value: Buffer.from('a'),
          headers: { ce_id: 'e-1', ce_time: 't', ce_type: 'baton.outcome.ROUTED' },
        },
      ],
    );
    vi.spyOn(Date, 'now').mockReturnValue(NOW);
    const ours = (await onePass(withBlocks).encode()).buffer;
    const theirs = (await originalProduce(withHeaders).encode()).buffer;
    expect(ours.equals(theirs)).toBe(true);
  });

  it("gives kafkajs's encoder an encoded header block as headers when it writes the request itself", async () => {
    const [withBlocks, withHeaders] = blockArgs(
      [{ key: 'k', value: 'v', encodedHeaders: headerBlock({ a: '1', b: '2' }), headers: { b: 'own' } }],
      [{ key: 'k', value: 'v', headers: { a: Buffer.from('1'), b: 'own' } }],
      1,
    );
    expect(encodeProduceBody(withBlocks, parts, NOW)).toBeUndefined();
    vi.spyOn(Date, 'now').mockReturnValue(NOW);
    const ours = (await onePass(withBlocks).encode()).buffer;
    const theirs = (await originalProduce(withHeaders).encode()).buffer;
    expect(ours.equals(theirs)).toBe(true);
  });

  it('writes any request behind its header and size as kafkajs does, with a null client id too', async () => {
    const body = new parts.Encoder(0) as unknown as { buf: Buffer; offset: number };
    body.buf = Buffer.from('some request body');
    body.offset = body.buf.length;
    for (const clientId of ['gateway ✓', null]) {
      const request = { apiKey: 3, apiVersion: 6, encode: async () => body };
      const theirs = await originalEnvelope({ correlationId: 9, clientId, request });
      const ours = await oneCopy({ correlationId: 9, clientId, request });
      expect(ours.buffer.equals(theirs.buffer)).toBe(true);
    }
  });

  it("is kafkajs's produce request and envelope once @baton/kafka is loaded", () => {
    createKafka({ brokers: ['localhost:9092'], clientId: 'test' });
    expect(patchProduceRequest()).toEqual({ status: 'applied', version: '2.2.4' });
    expect(kafkajsProduceModule('produce-v3')).not.toBe(originalProduce);
    expect(kafkajsProduceModule('envelope')).not.toBe(originalEnvelope);
  });
});
