/**
 * The baselines: a kafkajs consume-and-produce relay with no decoding, forwarding each record's
 * bytes, key and headers from RELAY_FROM to RELAY_TO. RELAY_MODE chooses how (see RELAY_MODES):
 *
 * - `per-record`: eachMessage and one awaited send per record, offsets auto-committed. What an
 *   at-least-once relay written the obvious way does.
 * - `batch`: eachBatch, the whole fetched batch forwarded with one send, offsets auto-committed.
 *   The at-least-once ceiling of this client.
 * - `transaction`: eachBatch, one transaction per fetched batch by a transactional producer per
 *   source partition (its transactional.id fences a previous owner): the outputs in one send,
 *   the consumed offsets with sendOffsets, commit. The exactly-once ceiling of this client, and
 *   what Baton's engine does, without Baton's decoding, validation, dedupe and per-task handlers.
 *
 * Each mode consumes up to 16 partitions at once, like Baton's consumer, and reads committed
 * records only (the default), so a relay behind a transactional one sees what Baton's would.
 */
import { rawKafkajs, rawProducer, type Producer } from './raw-kafkajs.js';
import { RELAY_MODES, type RelayMode } from './relay-modes.js';

const brokers = (process.env.KAFKA_BROKERS ?? '').split(',');
const from = process.env.RELAY_FROM ?? '';
const to = process.env.RELAY_TO ?? '';
const mode = process.env.RELAY_MODE as RelayMode;
if (!RELAY_MODES.includes(mode) || from === '' || to === '') {
  throw new Error(`RELAY_MODE (${RELAY_MODES.join(', ')}), RELAY_FROM and RELAY_TO are required`);
}
const groupId = `relay-${mode}-${from}`;
const kafka = rawKafkajs(brokers, groupId);
// The same long poll as Baton's consumer: the broker answers as soon as data arrives.
const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 1_000 });

type Message = { key: Buffer | null; value: Buffer | null; headers?: Record<string, unknown> };
const forwarded = (messages: Message[]) =>
  messages.map(({ key, value, headers }) => ({ key, value, headers: headers as Record<string, Buffer> }));

/** One transactional producer per source partition, made when the partition's first batch comes. */
const transactional = new Map<number, Promise<Producer>>();
function producerOf(partition: number): Promise<Producer> {
  let producer = transactional.get(partition);
  if (producer === undefined) {
    const made = rawProducer(kafka, {
      transactionalId: `${groupId}-${partition}`,
      idempotent: true,
      maxInFlightRequests: 1,
      // Baton's engine's retries (exactly-once-consumer.ts): a transaction begun while the broker
      // still writes the previous one's commit markers is retried after 5 ms, not kafkajs's 300,
      // which stalled the relay's partition for most of a row that lasts about a second.
      retry: { initialRetryTime: 5, maxRetryTime: 1_000, retries: 10 },
    });
    producer = made.connect().then(() => made);
    transactional.set(partition, producer);
  }
  return producer;
}

const plain = rawProducer(kafka, { idempotent: true });
if (mode !== 'transaction') await plain.connect();
await consumer.connect();
await consumer.subscribe({ topic: from, fromBeginning: true });
// Started once the group is joined, so the bench does not time the join.
consumer.on(consumer.events.GROUP_JOIN, () =>
  process.stdout.write(`${JSON.stringify({ event: 'service.started', http: 'none', mode })}\n`),
);

switch (mode) {
  case 'per-record':
    await consumer.run({
      partitionsConsumedConcurrently: 16,
      eachMessage: async ({ message }) => {
        await plain.send({ topic: to, messages: forwarded([message]) });
      },
    });
    break;
  case 'batch':
    await consumer.run({
      partitionsConsumedConcurrently: 16,
      eachBatch: async ({ batch }) => {
        if (batch.messages.length === 0) return;
        await plain.sendBatch({ topicMessages: [{ topic: to, messages: forwarded(batch.messages) }] });
      },
    });
    break;
  case 'transaction':
    await consumer.run({
      partitionsConsumedConcurrently: 16,
      // Offsets go with the transaction; kafkajs still resolves them locally to fetch on.
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        const last = batch.messages.at(-1);
        if (last === undefined) return;
        const transaction = await (await producerOf(batch.partition)).transaction();
        try {
          await transaction.sendBatch({ topicMessages: [{ topic: to, messages: forwarded(batch.messages) }] });
          await transaction.sendOffsets({
            consumerGroupId: groupId,
            topics: [
              { topic: from, partitions: [{ partition: batch.partition, offset: String(BigInt(last.offset) + 1n) }] },
            ],
          });
          await transaction.commit();
        } catch (error) {
          await transaction.abort().catch(() => undefined);
          throw error;
        }
      },
    });
    break;
}

process.once('SIGTERM', () => {
  void (async () => {
    await consumer.disconnect();
    const producers = [plain, ...(await Promise.all(transactional.values()))];
    await Promise.allSettled(producers.map((producer) => producer.disconnect()));
    process.exit(0);
  })();
});
