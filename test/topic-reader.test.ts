import { afterEach, expect, inject, test } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createKafka,
  KafkaClient,
  BATCH_WINDOW_MS,
  READER_STOP_GRACE_MS,
  RecordProducer,
  TopicReader,
} from '@baton/kafka';
import { createTestTopic, uniqueName, waitFor } from './helpers/index.js';
import { rawKafkajs, type Kafka } from './helpers/raw-kafkajs.js';

const brokers = inject('kafkaBrokers');
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/**
 * A client whose every consumer counts its Fetch requests and its fetch loop's turns: a kafkajs
 * client of the test's own, instrumented, wrapped as the KafkaClient the reader takes.
 */
function countingFetches(clientId: string): { kafka: KafkaClient; fetches: () => number; turns: () => number } {
  let fetches = 0;
  let turns = 0;
  const kafka = rawKafkajs(brokers, clientId);
  const counting = Object.create(kafka) as Kafka;
  counting.consumer = (config) => {
    const consumer = kafka.consumer(config);
    consumer.on(consumer.events.REQUEST, ({ payload }) => {
      if (payload.apiName === 'Fetch') fetches += 1;
    });
    // Emitted at every turn of kafkajs's fetch loop, whether or not it sends a request.
    consumer.on(consumer.events.FETCH_START, () => {
      turns += 1;
    });
    return consumer;
  };
  return { kafka: new KafkaClient(counting), fetches: () => fetches, turns: () => turns };
}

/** What was read, partition by partition, each in the order read: partitions are read in no set order. */
function byPartition(read: string[]): Record<string, string[]> {
  const partitions: Record<string, string[]> = {};
  for (const entry of read) {
    const [partition = '', value = ''] = entry.split(':');
    (partitions[partition] ??= []).push(value);
  }
  return partitions;
}

test('a reader that is not live reads to the end at start, fetches nothing while idle, and reads on when refreshed', async () => {
  const topic = await createTestTopic(brokers, 'on-demand-reader', 3);
  const kafka = createKafka({ brokers, clientId: uniqueName('on-demand-reader') });
  const producer = new RecordProducer(kafka);
  cleanups.push(() => producer.disconnect());
  // Partition 2 stays empty: the reader must not wait for it.
  await producer.send([
    { topic, key: 'a', value: 'a1', partition: 0 },
    { topic, key: 'b', value: 'b1', partition: 1 },
    { topic, key: 'a', value: 'a2', partition: 0 },
  ]);

  const counted = countingFetches(uniqueName('counting-reader'));
  const read: string[] = [];
  const reader = new TopicReader({
    kafka: counted.kafka,
    groupId: uniqueName('on-demand-reader-group'),
    topics: [topic],
    catchUp: { timeoutMs: 30_000 },
    live: false,
    onRecord: (record) => void read.push(`${record.partition}:${record.value?.toString()}`),
  });
  cleanups.push(() => reader.stop());
  await reader.start();
  expect(byPartition(read)).toEqual({ 0: ['a1', 'a2'], 1: ['b1'] });

  // Idle: kafkajs's loop turns (each turn finds every partition paused) without a Fetch request. A
  // turn with every partition paused sleeps a third of the session timeout (a reader's: 30 s) unless
  // a partition is resumed (kafkajs-fixes/consumer-fetch-waits.ts).
  const idleFrom = { fetches: counted.fetches(), turns: counted.turns() };
  await producer.send([
    { topic, key: 'b', value: 'b2', partition: 1 },
    { topic, key: 'c', value: 'c1', partition: 2 },
  ]);
  await waitFor(() => counted.turns() >= idleFrom.turns + 1, {
    description: 'a turn of the fetch loop',
    timeoutMs: 40_000,
  });
  expect(counted.fetches()).toBe(idleFrom.fetches);
  expect(byPartition(read)).toEqual({ 0: ['a1', 'a2'], 1: ['b1'] });

  // Asked twice at once, it reads once: the second caller shares the first one's refresh.
  const refreshed = reader.refresh();
  expect(reader.refresh()).toBe(refreshed);
  await refreshed;
  expect(byPartition(read)).toEqual({ 0: ['a1', 'a2'], 1: ['b1', 'b2'], 2: ['c1'] });

  // Read up to the end again: idle again, and a refresh with nothing new reads nothing.
  await reader.refresh();
  const idleAgain = { fetches: counted.fetches(), turns: counted.turns() };
  await waitFor(() => counted.turns() >= idleAgain.turns + 1, {
    description: 'another turn of the fetch loop',
    timeoutMs: 40_000,
  });
  expect(counted.fetches()).toBe(idleAgain.fetches);
  expect(byPartition(read)).toEqual({ 0: ['a1', 'a2'], 1: ['b1', 'b2'], 2: ['c1'] });
}, 120_000);

test('a live reader goes on reading records as they arrive', async () => {
  const topic = await createTestTopic(brokers, 'live-reader', 2);
  const kafka = createKafka({ brokers, clientId: uniqueName('live-reader') });
  const producer = new RecordProducer(kafka);
  cleanups.push(() => producer.disconnect());
  await producer.send([{ topic, key: 'a', value: 'a1', partition: 0 }]);

  const read: string[] = [];
  const reader = new TopicReader({
    kafka,
    groupId: uniqueName('live-reader-group'),
    topics: [topic],
    catchUp: { timeoutMs: 30_000 },
    onRecord: (record) => void read.push(`${record.partition}:${record.value?.toString()}`),
  });
  cleanups.push(() => reader.stop());
  await reader.start();
  expect(read).toEqual(['0:a1']);
  await producer.send([{ topic, key: 'b', value: 'b1', partition: 1 }]);
  await waitFor(() => read.length === 2, { description: 'the new record to be read' });
  expect(read).toEqual(['0:a1', '1:b1']);
}, 60_000);

test('a batched reader takes records arriving one by one once per wait, not one fetch each', async () => {
  const topic = await createTestTopic(brokers, 'batched-reader', 1);
  const kafka = createKafka({ brokers, clientId: uniqueName('batched-reader') });
  const producer = new RecordProducer(kafka);
  cleanups.push(() => producer.disconnect());
  await producer.send([{ topic, key: 'a', value: 'a0' }]);

  const counted = countingFetches(uniqueName('counting-reader'));
  const read: string[] = [];
  const reader = new TopicReader({
    kafka: counted.kafka,
    groupId: uniqueName('batched-reader-group'),
    topics: [topic],
    catchUp: { timeoutMs: 30_000 },
    batched: true,
    onRecord: (record) => void read.push(record.value?.toString() ?? ''),
  });
  cleanups.push(() => reader.stop());
  await reader.start();
  expect(read).toEqual(['a0']);

  // Twenty records, one every 50 ms, as heartbeats arrive: an unbatched reader fetches for each.
  const sent = Array.from({ length: 20 }, (_, index) => `a${index + 1}`);
  const from = { fetches: counted.fetches(), at: performance.now() };
  for (const value of sent) {
    await producer.send([{ topic, key: 'a', value }]);
    await sleep(50);
  }
  await waitFor(() => read.length === 21, { description: 'every record to be read' });
  const waits = (performance.now() - from.at) / BATCH_WINDOW_MS;
  expect(read).toEqual(['a0', ...sent]);
  expect(counted.fetches() - from.fetches).toBeLessThanOrEqual(Math.ceil(waits) + 1);
}, 60_000);

test('a reader that is not live cannot batch', () => {
  const kafka = createKafka({ brokers, clientId: uniqueName('batched-on-demand') });
  expect(
    () =>
      new TopicReader({
        kafka,
        groupId: uniqueName('batched-on-demand-group'),
        topics: ['any'],
        catchUp: {},
        live: false,
        batched: true,
        onRecord: () => undefined,
      }),
  ).toThrow('a TopicReader that is not live cannot batch');
});

test('a reader stops within its grace while the broker holds its fetch', async () => {
  const topic = await createTestTopic(brokers, 'quiet-reader', 1);
  const kafka = createKafka({ brokers, clientId: uniqueName('quiet-reader') });
  const producer = new RecordProducer(kafka);
  cleanups.push(() => producer.disconnect());
  const read: string[] = [];
  const reader = new TopicReader({
    kafka,
    groupId: uniqueName('quiet-reader-group'),
    topics: [topic],
    // Far longer than the grace, which bounds the stop whatever becomes of the fetch in flight.
    maxWaitMs: 20_000,
    onRecord: (record) => void read.push(String(record.value)),
  });
  await reader.start();
  await producer.send([{ topic, key: 'k', value: 'first', partition: 0 }]);
  await waitFor(() => read.length === 1, { description: 'the first record read' });
  // The fetch that follows a delivered batch is held by the broker for the whole wait.
  const began = Date.now();
  await reader.stop();
  expect(Date.now() - began).toBeLessThan(READER_STOP_GRACE_MS + 1_000);
  expect(reader.isRunning).toBe(false);
});
