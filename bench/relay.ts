/**
 * The baseline: a bare kafkajs consume-and-produce relay, no decoding, no transactions, offsets
 * auto-committed, one record at a time. It forwards each record's bytes and headers from RELAY_FROM to RELAY_TO.
 */
import { createKafka, createProducer } from '@baton/kafka';

const brokers = (process.env.KAFKA_BROKERS ?? '').split(',');
const from = process.env.RELAY_FROM ?? '';
const to = process.env.RELAY_TO ?? '';
const kafka = createKafka({ brokers, clientId: `bare-relay-${from}` });
const producer = createProducer(kafka, { idempotent: true });
const consumer = kafka.consumer({ groupId: `bare-relay-${from}`, maxWaitTimeInMs: 100 });
await producer.connect();
await consumer.connect();
await consumer.subscribe({ topic: from, fromBeginning: true });
await consumer.run({
  // One record at a time, like Baton's consumer, so the ratio shows what Baton's guarantees cost.
  partitionsConsumedConcurrently: 16,
  eachMessage: async ({ message }) => {
    await producer.send({
      topic: to,
      messages: [{ key: message.key, value: message.value, headers: message.headers }],
    });
  },
});
process.stdout.write(`${JSON.stringify({ event: 'service.started', http: 'none' })}\n`);
process.once(
  'SIGTERM',
  () =>
    void consumer
      .disconnect()
      .then(() => producer.disconnect())
      .then(() => process.exit(0)),
);
