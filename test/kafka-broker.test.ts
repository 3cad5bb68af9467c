import { afterEach, expect, inject, test } from 'vitest';
import { createKafka, RecordProducer, type KafkaLogRecord } from '@baton/kafka';
import { createTestTopic, uniqueName, waitFor } from './helpers/index.js';
// The consumers and the admin here are kafkajs's own: a group that commits, its offsets read back,
// partitions paused by hand, long fetch waits (what kafkajs-fixes/consumer-fetch-waits.ts fixes).
import { kafkajsLogLevel, rawKafkajs, rawKafkajsWith } from './helpers/raw-kafkajs.js';

const brokers = inject('kafkaBrokers');
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

interface Received {
  partition: number;
  offset: string;
  key: string | undefined;
  value: string | undefined;
  headers: Record<string, string | undefined>;
}

test('a record produced to a fresh topic comes back to a consumer group with its exact key, value and headers', async () => {
  const topic = await createTestTopic(brokers, 'broker-round-trip');
  const groupId = uniqueName('broker-round-trip-group');
  const kafka = rawKafkajs(brokers, uniqueName('broker-round-trip'));

  const producer = new RecordProducer(createKafka({ brokers, clientId: uniqueName('broker-round-trip') }));
  cleanups.push(() => producer.disconnect());
  const sent = await producer.send([
    {
      topic,
      key: 'task-42',
      value: '{"handoff_type":"review","payload":"ü ✓"}',
      headers: { correlation_id: 'corr-1', 'content-type': 'application/json' },
    },
  ]);
  expect(sent).toEqual([{ topic, partition: 0, baseOffset: '0' }]);

  const received: Received[] = [];
  // A short fetch wait: disconnect() waits for the fetch in flight, up to 5 s by default.
  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100 });
  await consumer.connect();
  cleanups.push(() => consumer.disconnect());
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ partition, message }) => {
      const headers = Object.fromEntries(
        Object.entries(message.headers ?? {}).map(([name, value]) => [name, value?.toString()]),
      );
      received.push({
        partition,
        offset: message.offset,
        key: message.key?.toString(),
        value: message.value?.toString(),
        headers,
      });
    },
  });

  await waitFor(() => received.length > 0, { description: 'the record to reach the consumer', timeoutMs: 30_000 });
  expect(received).toEqual([
    {
      partition: 0,
      offset: '0',
      key: 'task-42',
      value: '{"handoff_type":"review","payload":"ü ✓"}',
      headers: { correlation_id: 'corr-1', 'content-type': 'application/json' },
    },
  ]);

  // The group, not just this consumer, has taken the record: its committed offset moved past it.
  const admin = kafka.admin();
  await admin.connect();
  cleanups.push(() => admin.disconnect());
  const committed = await waitFor(
    async () => {
      const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
      return offsets?.partitions.find((partition) => partition.offset === '1');
    },
    { description: `group ${groupId} to commit offset 1` },
  );
  expect(committed).toEqual({ partition: 0, offset: '1', metadata: null });
});

// kafkajs 2.2.4 slept the whole fetch wait with every partition paused, deaf to resume() and to
// disconnect() (kafkajs-fixes/consumer-fetch-waits.ts): with a 4 s wait, both took up to 4 s. With
// the fix the sleep is as long (the wait is more than a third of the session timeout), so it cannot
// end by itself within the tests' bound of half the wait.
const PAUSED_FETCH_WAIT_MS = 4_000;
const PAUSED_SESSION_TIMEOUT_MS = 6_000;

/** A consumer of `topic` that pauses every partition as it joins, reading into `read`, and is asleep. */
async function pausedConsumer(topic: string) {
  const consumer = rawKafkajs(brokers, uniqueName('paused-consumer')).consumer({
    groupId: uniqueName('paused-consumer-group'),
    maxWaitTimeInMs: PAUSED_FETCH_WAIT_MS,
    sessionTimeout: PAUSED_SESSION_TIMEOUT_MS,
  });
  const read: string[] = [];
  let turns = 0;
  consumer.on(consumer.events.GROUP_JOIN, () => consumer.pause([{ topic }]));
  consumer.on(consumer.events.FETCH_START, () => {
    turns += 1;
  });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({ eachMessage: async ({ message }) => void read.push(message.value?.toString() ?? '') });
  // The first turn may have fetched before the pause took effect (what it fetched is dropped and
  // fetched again later); the second finds every partition paused, and sleeps.
  await waitFor(() => turns >= 2, { description: 'the second turn of the fetch loop', timeoutMs: 30_000 });
  return { consumer, read };
}

test('a consumer with every partition paused reads a resumed partition without sleeping its fetch wait out', async () => {
  const topic = await createTestTopic(brokers, 'paused-resume');
  const producer = new RecordProducer(createKafka({ brokers, clientId: uniqueName('paused-resume') }));
  cleanups.push(() => producer.disconnect());
  await producer.send([{ topic, key: 'k', value: 'v1' }]);
  const { consumer, read } = await pausedConsumer(topic);
  cleanups.push(() => consumer.disconnect());
  expect(read).toEqual([]);

  consumer.resume([{ topic }]);
  await waitFor(() => read.length === 1, {
    description: 'the resumed partition read',
    timeoutMs: PAUSED_FETCH_WAIT_MS / 2,
  });
  expect(read).toEqual(['v1']);
}, 90_000);

test('a consumer with every partition paused disconnects without sleeping its fetch wait out', async () => {
  const topic = await createTestTopic(brokers, 'paused-disconnect');
  const { consumer } = await pausedConsumer(topic);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<string>((resolve) => {
    timer = setTimeout(resolve, PAUSED_FETCH_WAIT_MS / 2, 'still sleeping');
  });
  const disconnected = consumer.disconnect().then(() => 'disconnected');
  expect(await Promise.race([disconnected, deadline])).toBe('disconnected');
  clearTimeout(timer);
}, 90_000);

// kafkajs 2.2.4's disconnect() waited for the fetch in flight, which the broker holds for the whole
// fetch wait on an idle topic, and a partition resumed during a fetch of the others waited for it
// too (kafkajs-fixes/consumer-fetch-waits.ts): with this wait, up to 20 s each. The tests' bound is
// half of it.
const LONG_FETCH_WAIT_MS = 20_000;

/**
 * A consumer of `topic` long-polling with LONG_FETCH_WAIT_MS, reading into `read`, pausing
 * `pausedOnJoin` as it joins; `fetches` counts the turns of its fetch loop, `logged` its warnings.
 */
async function longPollingConsumer(topic: string, groupId: string, pausedOnJoin: number[] = []) {
  const logged: string[] = [];
  const kafka = rawKafkajsWith({
    brokers,
    clientId: uniqueName('long-poll'),
    logLevel: kafkajsLogLevel.WARN,
    logCreator: () => (entry) => void logged.push(`${entry.label} ${entry.log.message}`),
  });
  const consumer = kafka.consumer({
    groupId,
    maxWaitTimeInMs: LONG_FETCH_WAIT_MS,
    sessionTimeout: 3 * LONG_FETCH_WAIT_MS,
  });
  const read: string[] = [];
  const counts = { fetches: 0 };
  consumer.on(consumer.events.GROUP_JOIN, () => consumer.pause([{ topic, partitions: pausedOnJoin }]));
  consumer.on(consumer.events.FETCH_START, () => {
    counts.fetches += 1;
  });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({ eachMessage: async ({ message }) => void read.push(message.value?.toString() ?? '') });
  return { kafka, consumer, read, counts, logged };
}

/** `operation`'s outcome, or 'still waiting' when it takes over half of LONG_FETCH_WAIT_MS. */
async function withinHalfTheWait<T>(operation: Promise<T>): Promise<T | 'still waiting'> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'still waiting'>((resolve) => {
    timer = setTimeout(resolve, LONG_FETCH_WAIT_MS / 2, 'still waiting');
  });
  try {
    return await Promise.race([operation, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

test('a consumer long-polling an idle topic disconnects without waiting its fetch out, and leaves its group', async () => {
  const topic = await createTestTopic(brokers, 'long-poll-disconnect');
  const producer = new RecordProducer(createKafka({ brokers, clientId: uniqueName('long-poll-disconnect') }));
  cleanups.push(() => producer.disconnect());
  await producer.send([{ topic, key: 'k', value: 'v1' }]);
  const groupId = uniqueName('long-poll-disconnect-group');
  const { kafka, consumer, read, counts, logged } = await longPollingConsumer(topic, groupId);
  // The record comes with a first fetch; a later one, on a connection already open, long-polls.
  await waitFor(() => read.length === 1 && counts.fetches >= 2, {
    description: 'the record read and the next fetch under way',
    timeoutMs: 30_000,
  });

  expect(await withinHalfTheWait(consumer.disconnect().then(() => 'disconnected'))).toBe('disconnected');
  const admin = kafka.admin();
  cleanups.push(() => admin.disconnect());
  await admin.connect();
  const { groups } = await admin.describeGroups([groupId]);
  expect(groups.map(({ state, members }) => ({ state, members }))).toEqual([{ state: 'Empty', members: [] }]);
  expect(logged).toEqual([]);
}, 90_000);

test('a consumer long-polling one partition reads another it resumes without waiting the fetch out', async () => {
  const topic = await createTestTopic(brokers, 'long-poll-resume', 2);
  const producer = new RecordProducer(createKafka({ brokers, clientId: uniqueName('long-poll-resume') }));
  cleanups.push(() => producer.disconnect());
  await producer.send([{ topic, key: 'k', value: 'on 1', partition: 1 }]);
  const { consumer, read, counts, logged } = await longPollingConsumer(
    topic,
    uniqueName('long-poll-resume-group'),
    [1],
  );
  cleanups.push(() => consumer.disconnect());
  // Partition 0 is idle: each of these fetches waits on the broker, partition 1 in none of them.
  await waitFor(() => counts.fetches >= 3, { description: 'fetches of partition 0 alone', timeoutMs: 30_000 });
  expect(read).toEqual([]);

  consumer.resume([{ topic, partitions: [1] }]);
  const readBack = waitFor(() => read.length === 1, {
    description: 'the resumed partition read',
    timeoutMs: LONG_FETCH_WAIT_MS,
  });
  expect(await withinHalfTheWait(readBack.then(() => 'read'))).toBe('read');
  expect(read).toEqual(['on 1']);
  expect(logged).toEqual([]);
}, 90_000);

test('a client connects without a connection timeout when its process is busy for over a second while it connects', async () => {
  const topic = await createTestTopic(brokers, 'busy-connect');
  const logged: KafkaLogRecord[] = [];
  const producer = new RecordProducer(
    createKafka({ brokers, clientId: uniqueName('busy-connect'), logSink: (record) => logged.push(record) }),
  );
  cleanups.push(() => producer.disconnect());
  const sent = producer.send([{ topic, key: 'k', value: 'v' }]);
  // The socket is opening now; the event loop then stays busy past kafkajs's default 1 s timeout,
  // as a service's does while a fleet of them loads on 2 cores, before it can see the connection.
  await new Promise((resolve) => setImmediate(resolve));
  const busyUntil = Date.now() + 1_500;
  while (Date.now() < busyUntil);
  expect(await sent).toEqual([{ topic, partition: 0, baseOffset: '0' }]);
  expect(logged.filter((record) => record.level === 'error').map((record) => record.msg)).toEqual([]);
});

test('a transaction that begins with its offsets, right after the producer’s previous commit, commits (kafkajs#430, fixed)', async () => {
  const topic = await createTestTopic(brokers, 'offsets-first');
  const groupId = uniqueName('offsets-first-group');
  // Baton's consumers retry a transaction with the producer's settings (exactly-once-consumer.ts):
  // the coordinator's CONCURRENT_TRANSACTIONS lasts a few ms, while it writes the commit's markers.
  // Not logged: kafkajs logs each such answer as an error before its request is retried.
  const producer = rawKafkajsWith({ brokers, clientId: uniqueName('offsets-first') }).producer({
    transactionalId: uniqueName('offsets-first'),
    idempotent: true,
    maxInFlightRequests: 1,
    retry: { initialRetryTime: 5, maxRetryTime: 1_000, retries: 10 },
  });
  await producer.connect();
  cleanups.push(() => producer.disconnect());
  // As a consumer's batch of duplicates only: nothing to write, the offset to commit.
  for (let round = 0; round < 20; round += 1) {
    const written = await producer.transaction();
    await written.send({ topic, messages: [{ key: 'task', value: String(round) }] });
    await written.commit();
    const offsetsOnly = await producer.transaction();
    await offsetsOnly.sendOffsets({
      consumerGroupId: groupId,
      topics: [{ topic, partitions: [{ partition: 0, offset: String(2 * round + 2) }] }],
    });
    await offsetsOnly.commit();
  }
  const admin = rawKafkajs(brokers, uniqueName('offsets-first-admin')).admin();
  await admin.connect();
  cleanups.push(() => admin.disconnect());
  const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
  expect(committed?.partitions).toEqual([{ partition: 0, offset: '40', metadata: null }]);
});

test('a record producer goes on after a send the broker refused: the sends queued behind it on its partition are each written once', async () => {
  const topic = uniqueName('refused-send');
  const admin = rawKafkajs(brokers, uniqueName('refused-send-admin')).admin();
  await admin.connect();
  cleanups.push(() => admin.disconnect());
  await admin.createTopics({
    waitForLeaders: true,
    topics: [{ topic, numPartitions: 1, configEntries: [{ name: 'max.message.bytes', value: '2000' }] }],
  });
  const logged: KafkaLogRecord[] = [];
  const producer = new RecordProducer(
    createKafka({ brokers, clientId: uniqueName('refused-send'), logSink: (record) => logged.push(record) }),
  );
  cleanups.push(() => producer.disconnect());
  await producer.connect();

  // The refused one first: the others wait for its turn on partition 0, then for a new producer.
  const sends = [
    producer.send([{ topic, key: 'k', value: 'x'.repeat(10_000) }]),
    ...['a', 'b', 'c', 'd'].map((value) => producer.send([{ topic, key: 'k', value }])),
  ];
  const [refused, ...written] = await Promise.allSettled(sends);

  expect(refused).toMatchObject({ status: 'rejected', reason: { type: 'MESSAGE_TOO_LARGE' } });
  expect(written.map((result) => result.status === 'fulfilled' && result.value[0]?.baseOffset).sort()).toEqual([
    '0',
    '1',
    '2',
    '3',
  ]);
  expect(await producer.send([{ topic, key: 'k', value: 'e' }])).toEqual([{ topic, partition: 0, baseOffset: '4' }]);
  const offsets = await admin.fetchTopicOffsets(topic);
  expect(offsets).toEqual([expect.objectContaining({ partition: 0, high: '5' })]);
  // kafkajs logs the refusal, by the connection and by the producer, and nothing else.
  expect(new Set(logged.map((record) => record.error ?? record.msg))).toEqual(
    new Set(['The request included a message larger than the max message size the server will accept']),
  );
});
