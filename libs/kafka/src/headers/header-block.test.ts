import { describe, expect, it } from 'vitest';
import { createKafka } from '../create-kafka.js';
import { kafkajsOriginal } from '../kafkajs-fixes/kafkajs-original.test-helper.js';
import { decodeRecord, type RecordDecoderInput } from '../kafkajs-fixes/record-decoding.js';
import { encodeHeaderBlock, encodedHeaderStrings } from './header-block.js';

createKafka({ brokers: ['localhost:9092'], clientId: 'test' });
const Decoder = kafkajsOriginal<new (buffer: Buffer) => RecordDecoderInput>('kafkajs/src/protocol/decoder.js');
const encodeRecord = kafkajsOriginal<
  (record: { key: string; value: string; headers: Record<string, string> }) => { buffer: Buffer }
>('kafkajs/src/protocol/recordBatch/record/v0/index.js');

/** The header bytes kafkajs writes into a record for `headers`. */
function kafkajsHeaderBytes(headers: Record<string, string>): Buffer {
  const record = new Decoder(
    new Decoder(encodeRecord({ key: 'k', value: 'v', headers }).buffer).readVarIntBytes() as Buffer,
  );
  const { buffer, byteOffset, byteLength } = decodeRecord(record, {
    firstOffset: '0',
    firstTimestamp: '0',
  }).headerBytes;
  return Buffer.from(buffer, byteOffset, byteLength);
}

describe('encodeHeaderBlock', () => {
  it('writes the bytes kafkajs writes for the same headers, and reads back as them', () => {
    const headers = { ce_specversion: '1.0', ce_id: 'e-1', nämé: 'ü 😀', empty: '', long: 'x'.repeat(300) };
    const block = encodeHeaderBlock(headers);
    expect(block.count).toBe(5);
    expect(block.bytes.subarray(block.start, block.end).equals(kafkajsHeaderBytes(headers))).toBe(true);
    expect(encodedHeaderStrings(block)).toStrictEqual(headers);
  });

  it('keeps every block whole as blocks fill one buffer after another, a block larger than one included', () => {
    const blocks = Array.from({ length: 3_000 }, (_, index) => {
      const headers = { ce_id: `event-${index}`, ce_time: new Date(index).toISOString() };
      return { headers, block: encodeHeaderBlock(headers) };
    });
    const huge = { big: 'y'.repeat(70 * 1024) };
    const hugeBlock = encodeHeaderBlock(huge);
    const after = { ce_id: 'after' };
    const afterBlock = encodeHeaderBlock(after);
    expect(new Set(blocks.map(({ block }) => block.bytes)).size).toBeGreaterThan(1);
    for (const { headers, block } of blocks) expect(encodedHeaderStrings(block)).toStrictEqual(headers);
    expect([encodedHeaderStrings(hugeBlock), encodedHeaderStrings(afterBlock)]).toStrictEqual([huge, after]);
  });
});
