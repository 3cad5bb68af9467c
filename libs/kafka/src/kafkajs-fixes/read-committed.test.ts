import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createKafka } from '../create-kafka.js';
import { filterAbortedMessages, kafkajsAbortedFilter, patchReadCommitted } from './read-committed.js';

const ABORT = Buffer.from([0, 0, 0, 0]);
const COMMIT = Buffer.from([0, 0, 0, 1]);

const record = (offset: number, producerId: string, key: Buffer | null = Buffer.from('k'), control = false) => ({
  offset: String(offset),
  key,
  value: Buffer.from(`${producerId}@${offset}`),
  isControlRecord: control,
  batchContext: { producerId, inTransaction: true },
});

/**
 * Producer A begins a transaction (0, 1); B writes (2) and aborts (3); A aborts (4); A commits one
 * more record (5, marker 6). The broker lists aborted transactions in abort order: B's, then A's.
 */
const partition = {
  partition: 0,
  highWatermark: '7',
  abortedTransactions: [
    { producerId: 'B', firstOffset: '2' },
    { producerId: 'A', firstOffset: '0' },
  ],
  messages: [
    record(0, 'A'),
    record(1, 'A'),
    record(2, 'B'),
    record(3, 'B', ABORT, true),
    record(4, 'A', ABORT, true),
    record(5, 'A'),
    record(6, 'A', COMMIT, true),
  ],
};

describe("kafkajs's read_committed filter, fixed", () => {
  it('drops every record of an aborted transaction whatever the order the broker lists them in', () => {
    const kept = filterAbortedMessages(partition).filter(
      (message) => !('isControlRecord' in message && message.isControlRecord),
    );
    expect(kept.map((message) => message.offset)).toEqual(['5']);
  });

  it('keeps records of producers with no aborted transaction, and everything when none was aborted', () => {
    const plain = [record(0, 'C'), record(1, 'C')];
    expect(filterAbortedMessages({ messages: plain, abortedTransactions: [] })).toBe(plain);
    expect(
      filterAbortedMessages({ messages: plain, abortedTransactions: [{ producerId: 'A', firstOffset: '0' }] }),
    ).toEqual(plain);
  });

  it("is what kafkajs's consumer batches filter with once @baton/kafka is loaded", () => {
    createKafka({ brokers: ['localhost:9092'], clientId: 'test' });
    expect(patchReadCommitted()).toEqual({ status: 'applied', version: '2.2.4' });
    expect(kafkajsAbortedFilter()).toBe(filterAbortedMessages);
    const Batch = createRequire(import.meta.url)('kafkajs/src/consumer/batch.js') as new (
      topic: string,
      fetchedOffset: string,
      partitionData: typeof partition,
    ) => { messages: { offset: string }[] };
    expect(new Batch('t', '0', partition).messages.map((message) => message.offset)).toEqual(['5']);
  });
});
