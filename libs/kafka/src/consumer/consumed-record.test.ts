import { describe, expect, it } from 'vitest';
import type { KafkaMessage } from 'kafkajs';
import { createKafka } from '../create-kafka.js';
import { kafkajsOriginal } from '../kafkajs-fixes/kafkajs-original.test-helper.js';
import { decodeRecord, type EncodedHeaders, type RecordDecoderInput } from '../kafkajs-fixes/record-decoding.js';
import { consumedRecord, headerOf } from './consumed-record.js';

createKafka({ brokers: ['localhost:9092'], clientId: 'test' });
const Decoder = kafkajsOriginal<new (buffer: Buffer) => RecordDecoderInput>('kafkajs/src/protocol/decoder.js');
const encodeRecord = kafkajsOriginal<
  (record: { offsetDelta: number; key: string; value: string; headers: Record<string, string | string[]> }) => {
    buffer: Buffer;
  }
>('kafkajs/src/protocol/recordBatch/record/v0/index.js');

const HEADERS = { ce_id: 'm-1', ce_type: 'ESCALATION', traceparent: '00-aa-bb-01', twice: ['1', '2'] };

/** A record as kafkajs's fetch hands it over, decoded by Baton's record decoder. */
function fetched(): KafkaMessage {
  const bytes = encodeRecord({ offsetDelta: 2, key: 'task-1', value: 'v', headers: HEADERS }).buffer;
  const context = { firstOffset: '40', firstTimestamp: '1764000000000' };
  return decodeRecord(new Decoder(new Decoder(bytes).readVarIntBytes() as Buffer), context) as unknown as KafkaMessage;
}

/** A block's bytes, as latin1 text. */
function blockText(block: EncodedHeaders | undefined): string | undefined {
  return block?.bytes.toString('latin1', block.start, block.end);
}

describe('consumedRecord', () => {
  it('reads a fetched record as processors see it, its headers when first read', () => {
    const message = fetched();
    const record = consumedRecord('inbox', 3, message);
    expect([
      record.topic,
      record.partition,
      record.offset,
      record.key,
      record.value?.toString(),
      record.timestamp,
    ]).toStrictEqual(['inbox', 3, '42', 'task-1', 'v', '1764000000000']);
    expect(record.headers).toStrictEqual({
      ce_id: 'm-1',
      ce_type: 'ESCALATION',
      traceparent: '00-aa-bb-01',
      twice: '2',
    });
    expect(record.encodedHeaders?.count).toBe(5);
  });

  it('reads one header as the headers read it, before and after they are decoded', () => {
    const record = consumedRecord('inbox', 0, fetched());
    const asked = () => ['traceparent', 'twice', 'absent', 'constructor'].map((name) => headerOf(record, name));
    const before = asked();
    expect(record.headers.traceparent).toBe('00-aa-bb-01');
    expect([before, asked()]).toStrictEqual([
      ['00-aa-bb-01', '2', undefined, undefined],
      ['00-aa-bb-01', '2', undefined, undefined],
    ]);
  });

  it('reads each record of one fetched buffer, and of another between them, from its own bytes', () => {
    const encoded = (index: number) =>
      encodeRecord({ offsetDelta: index, key: `task-${index}`, value: `v${index}`, headers: { n: `h${index}` } })
        .buffer;
    // One fetch: both records in one buffer, each read by the batch decoder's Decoder of its bytes.
    const fetch = new Decoder(Buffer.concat([encoded(0), encoded(1)]));
    const context = { firstOffset: '0', firstTimestamp: '0' };
    const [first, second] = [0, 1].map(() =>
      consumedRecord('t', 0, decodeRecord(new Decoder(fetch.readVarIntBytes() as Buffer), context) as never),
    );
    const other = consumedRecord('t', 0, fetched());
    expect([
      headerOf(second!, 'n'),
      headerOf(other, 'ce_type'),
      headerOf(first!, 'n'),
      first!.headers,
      blockText(second!.encodedHeaders),
    ]).toStrictEqual(['h1', 'ESCALATION', 'h0', { n: 'h0' }, '\u0002n\u0004h1']);
  });

  it('reads the headers kafkajs hands over otherwise', () => {
    const message = { offset: '7', key: null, value: null, timestamp: '0', headers: { a: Buffer.from('1') } };
    const record = consumedRecord('t', 0, message as unknown as KafkaMessage);
    expect(record.headers).toStrictEqual({ a: '1' });
    expect(record.encodedHeaders).toBeUndefined();
    expect([headerOf(record, 'a'), headerOf(record, 'constructor')]).toStrictEqual(['1', undefined]);
  });
});
