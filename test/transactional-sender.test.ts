import { afterEach, describe, expect, inject, it } from 'vitest';
import { TransactionalSender, createKafka, createTopics, type OutputRecord, type SentRecord } from '@baton/kafka';
import { collectRecords, uniqueName, waitFor } from './helpers/index.js';

const brokers = inject('kafkaBrokers');
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(): Promise<{ topic: string; sender: TransactionalSender }> {
  const topic = uniqueName('sender');
  const kafka = createKafka({ brokers, clientId: uniqueName('sender') });
  await createTopics(kafka, [{ topic, numPartitions: 1, replicationFactor: 1 }]);
  const sender = new TransactionalSender(kafka, uniqueName('txn'));
  cleanups.push(() => sender.close());
  return { topic, sender };
}

const record = (topic: string, value: string | Buffer): OutputRecord => ({
  topic,
  key: 'task',
  value: Buffer.isBuffer(value) ? value : Buffer.from(value),
});

describe('TransactionalSender against a real broker', () => {
  it('commits sends that arrive during a transaction together in the next one, telling each where its records went', async () => {
    const { topic, sender } = await setUp();
    const sends = Array.from({ length: 20 }, (_, i) => sender.send([record(topic, `a${i}`), record(topic, `b${i}`)]));
    const sent = await Promise.all(sends);
    // The first send starts a transaction alone; the 19 that queued meanwhile share the next one,
    // so their 38 records sit at consecutive offsets, with no commit marker between them.
    const offsets = sent.slice(1).flatMap((records: SentRecord[]) => records.map((entry) => Number(entry.offset)));
    expect(offsets).toEqual(Array.from({ length: 38 }, (_, i) => (offsets[0] as number) + i));
    const collector = await collectRecords(brokers, topic);
    cleanups.push(() => collector.stop());
    await waitFor(() => collector.records.length === 40, { description: 'all 40 records' });
    for (const [i, records] of sent.entries()) {
      expect(
        records.map((entry) => collector.records.find((seen) => seen.offset === entry.offset)?.value?.toString()),
      ).toEqual([`a${i}`, `b${i}`]);
    }
  });

  it('fails only the send whose record the broker refuses when it was grouped with others', async () => {
    const { topic, sender } = await setUp();
    const first = sender.send([record(topic, 'first')]);
    const grouped = [
      sender.send([record(topic, 'before')]),
      sender.send([record(topic, 'ok'), record(topic, Buffer.alloc(2 * 1024 * 1024, 1))]),
      sender.send([record(topic, 'after')]),
    ];
    const results = await Promise.allSettled([first, ...grouped]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseRejectedResult).reason).toMatchObject({ code: 'KAFKA_UNAVAILABLE' });
    const collector = await collectRecords(brokers, topic);
    cleanups.push(() => collector.stop());
    await waitFor(() => collector.records.length === 3, { description: 'the three accepted records' });
    expect(collector.records.map((seen) => seen.value?.toString())).toEqual(['first', 'before', 'after']);
  });
});
