import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createKafka } from '../create-kafka.js';
import { groupMessagesPerPartition, kafkajsModule, patchProduceEncoding } from './produce-encoding.js';

interface Encoder {
  offset: number;
  buffer: Buffer;
  writeVarInt(value: number): Encoder;
  writeUVarInt(value: number): Encoder;
  writeVarLong(value: number): Encoder;
  writeVarIntBytes(value: Buffer | string | null): Encoder;
  writeVarIntString(value: string): Encoder;
  writeInt32(value: number): Encoder;
  writeInt64(value: number): Encoder;
  writeEncoder(value: Encoder): Encoder;
}
type EncoderClass = new (initialSize?: number) => Encoder;

createKafka({ brokers: ['localhost:9092'], clientId: 'test' });
const Pooled = kafkajsModule('encoder') as EncoderClass;
/** kafkajs's own Encoder, which the replacement extends. */
const Original = Object.getPrototypeOf(Pooled) as EncoderClass;

/** The same writes on an encoder of `Kind`, past its first 512 bytes, nested encoders included. */
function encodeWith(Kind: EncoderClass): Buffer {
  const encoder = new Kind();
  const ints = [0, 1, -1, 63, 64, -64, -65, 127, 128, 300, 16_383, 16_384, 2 ** 21, 2 ** 28, 2 ** 31 - 1, -(2 ** 31)];
  for (const value of ints) encoder.writeVarInt(value).writeUVarInt(Math.abs(value) >>> 0);
  for (const value of [0, 1, -1, 2 ** 40, -(2 ** 40)]) encoder.writeVarLong(value);
  encoder.writeVarIntBytes(null).writeVarIntBytes('').writeVarIntBytes('ce_id').writeVarIntBytes(Buffer.alloc(700, 7));
  const header = new Kind().writeVarIntString('ce_type').writeVarIntBytes(Buffer.from('baton.handoff'));
  encoder
    .writeEncoder(header)
    .writeInt32(123_456)
    .writeInt64(Date.UTC(2026, 0, 1));
  return encoder.buffer;
}

describe("kafkajs's produce encoding, fixed", () => {
  it('writes exactly the bytes kafkajs 2.2.4 writes', () => {
    const expected = encodeWith(Original);
    expect(expected.length).toBeGreaterThan(512);
    expect(encodeWith(Pooled).equals(expected)).toBe(true);
  });

  it('hands out only what was written, also after growing', () => {
    const encoder = new Pooled(8);
    encoder.writeVarIntBytes(Buffer.alloc(100, 1));
    expect(encoder.buffer.length).toBe(encoder.offset);
    expect(encoder.buffer.length).toBe(102); // zigzag(100) takes two varint bytes
  });

  it('groups messages by partition in one pass, each partition in send order', () => {
    const messages = [0, 1, 2, 3, 4, 5, 6].map((n) => ({ n, partition: n % 3 === 0 ? 2 : 0 }));
    const grouped = groupMessagesPerPartition({
      topic: 't',
      partitionMetadata: [{ partitionId: 0 }, { partitionId: 2 }],
      messages,
      partitioner: ({ message }) => message.partition ?? -1,
    });
    expect(grouped).toEqual({ 0: [1, 2, 4, 5].map((n) => messages[n]), 2: [0, 3, 6].map((n) => messages[n]) });
    expect(groupMessagesPerPartition({ topic: 't', partitionMetadata: [], messages, partitioner: () => 0 })).toEqual(
      {},
    );
  });

  it('is what kafkajs loads once @baton/kafka is', () => {
    expect(patchProduceEncoding()).toEqual({ status: 'applied', version: '2.2.4' });
    expect(kafkajsModule('grouping')).toBe(groupMessagesPerPartition);
    const requireKafkajs = createRequire(import.meta.url);
    const Request = requireKafkajs('kafkajs/src/protocol/request.js') as (args: object) => {
      encode(): Promise<Buffer>;
    };
    expect(Request).toBeTypeOf('function');
    const Record = requireKafkajs('kafkajs/src/protocol/recordBatch/record/v0/index.js') as (args: object) => unknown;
    expect(Record({ key: Buffer.from('k'), value: Buffer.from('v'), headers: { h: Buffer.from('x') } })).toBeInstanceOf(
      Pooled,
    );
  });
});
