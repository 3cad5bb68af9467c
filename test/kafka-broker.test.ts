import { afterEach, expect, inject, test } from 'vitest';
import { createKafka, createProducer } from '@baton/kafka';
import { createTestTopic, uniqueName, waitFor } from './helpers/index.js';

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
  const kafka = createKafka({ brokers, clientId: uniqueName('broker-round-trip') });

  const producer = createProducer(kafka);
  await producer.connect();
  cleanups.push(() => producer.disconnect());
  const [sent] = await producer.send({
    topic,
    messages: [
      {
        key: 'task-42',
        value: '{"handoff_type":"review","payload":"ü ✓"}',
        headers: { correlation_id: 'corr-1', 'content-type': 'application/json' },
      },
    ],
  });
  expect(sent).toMatchObject({ topicName: topic, partition: 0, baseOffset: '0' });

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
