import { afterEach, describe, expect, inject, it } from 'vitest';
import { BatonError } from '@baton/errors';
import {
  ExactlyOnceConsumer,
  consumerTopicSpecs,
  createKafka,
  createTopics,
  RecordProducer,
  REPLAY_HEADERS,
  type ConsumerObserver,
  type ConsumerTuning,
  type MessageProcessor,
  type OutputRecord,
} from '@baton/kafka';
import { collectRecords, uniqueName, waitFor, type RecordCollector } from './helpers/index.js';
import { rawKafkajs } from './helpers/raw-kafkajs.js';

const brokers = inject('kafkaBrokers');
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface TestMessage {
  id: string;
  task: string;
  seq: number;
  /** How many attempts fail transiently before one succeeds; -1 fails forever. */
  failures?: number;
  /** How many attempts fail as if the platform were down (REGISTRY_UNAVAILABLE). */
  outages?: number;
  retries?: number;
  /** The first attempt's output is larger than the broker takes, so its transaction fails. */
  oversizedOnce?: boolean;
  /** Bytes to make the record as large as a test needs. */
  pad?: string;
}

interface SetUpOptions {
  tuning?: Partial<ConsumerTuning>;
  observer?: ConsumerObserver;
  /** Runs in the handler before it returns its output. */
  whileHandling?(message: TestMessage): Promise<void>;
}

interface Setup {
  topic: string;
  output: string;
  handled: { id: string; attempt: number }[];
  publish(messages: (TestMessage | Buffer)[], headers?: Record<string, string>): Promise<void>;
  startConsumer(instanceId?: string): Promise<ExactlyOnceConsumer<TestMessage>>;
  collect(topic: string): Promise<RecordCollector>;
}

async function setUp(partitions = 1, options: SetUpOptions = {}): Promise<Setup> {
  const topic = uniqueName('eos-in');
  const output = uniqueName('eos-out');
  const kafka = createKafka({ brokers, clientId: uniqueName('eos') });
  await createTopics(kafka, [
    ...consumerTopicSpecs(topic, { numPartitions: partitions, replicationFactor: 1 }),
    { topic: output, numPartitions: 1, replicationFactor: 1 },
  ]);
  const producer = new RecordProducer(kafka);
  await producer.connect();
  cleanups.push(() => producer.disconnect());
  const handled: { id: string; attempt: number }[] = [];
  const outagesSeen = new Map<string, number>();
  const processor: MessageProcessor<TestMessage> = {
    async decode(record) {
      try {
        const value = JSON.parse(record.value?.toString() ?? '') as TestMessage;
        return { value, messageId: value.id, retryLimit: value.retries };
      } catch (error) {
        throw new BatonError('WIRE_FORMAT_INVALID', 'not a JSON test message', { cause: error });
      }
    },
    async process(message, { attempt }) {
      handled.push({ id: message.value.id, attempt });
      const outages = (outagesSeen.get(message.value.id) ?? 0) + 1;
      outagesSeen.set(message.value.id, outages);
      if (outages <= (message.value.outages ?? 0)) {
        throw new BatonError('REGISTRY_UNAVAILABLE', `registry down (${outages})`);
      }
      const failures = message.value.failures ?? 0;
      if (failures === -1 || attempt <= failures)
        throw new Error(`transient failure ${attempt} of ${message.value.id}`);
      await options.whileHandling?.(message.value);
      const oversized = message.value.oversizedOnce === true && outages === 1;
      const value = oversized ? Buffer.alloc(2 * 1024 * 1024, 1) : Buffer.from(message.value.id);
      const out: OutputRecord = { topic: output, key: message.value.task, value };
      return [out];
    },
  };
  return {
    topic,
    output,
    handled,
    async publish(messages, headers) {
      await producer.send(
        messages.map((message) =>
          Buffer.isBuffer(message)
            ? { topic, key: 'broken', value: message, headers: { origin: 'test' } }
            : { topic, key: message.task, value: JSON.stringify(message), headers },
        ),
      );
    },
    async startConsumer(instanceId = 'instance-1') {
      const consumer = new ExactlyOnceConsumer<TestMessage>({
        kafka,
        groupId: `${topic}.group`,
        topic,
        instanceId,
        processor,
        defaultRetryLimit: 2,
        backoff: { initialDelayMs: 50, maxDelayMs: 400, multiplier: 2 },
        tuning: options.tuning,
        observer: options.observer,
      });
      await consumer.start();
      cleanups.push(() => consumer.close());
      return consumer;
    },
    async collect(name) {
      const collector = await collectRecords(brokers, name);
      cleanups.push(() => collector.stop());
      return collector;
    },
  };
}

/** A promise and the call that resolves it: a gate a test opens when its handlers got far enough. */
function newGate(): { promise: Promise<void>; open(): void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const values = (collector: RecordCollector): string[] =>
  collector.records.map((record) => record.value?.toString() ?? '');

describe('ExactlyOnceConsumer against a real broker', () => {
  it('processes a message published twice once, and its output exists once', async () => {
    const setup = await setUp();
    const out = await setup.collect(setup.output);
    await setup.startConsumer();
    await setup.publish([
      { id: 'm-1', task: 't-1', seq: 1 },
      { id: 'm-1', task: 't-1', seq: 1 },
      { id: 'm-2', task: 't-1', seq: 2 },
    ]);
    await waitFor(() => out.records.length >= 2, { description: 'two outputs' });
    await waitFor(async () => (await committedOffset(setup.topic)) === '3', { description: 'offset 3 committed' });
    expect(values(out)).toEqual(['m-1', 'm-2']);
    expect(setup.handled.map((entry) => entry.id)).toEqual(['m-1', 'm-2']);
  });

  it('remembers processed ids across a restart of the consumer group', async () => {
    const setup = await setUp();
    const out = await setup.collect(setup.output);
    const first = await setup.startConsumer('instance-1');
    await setup.publish([{ id: 'm-1', task: 't-1', seq: 1 }]);
    await waitFor(() => out.records.length === 1, { description: 'first output' });
    await first.close();
    await setup.startConsumer('instance-2');
    await setup.publish([
      { id: 'm-1', task: 't-1', seq: 1 },
      { id: 'm-2', task: 't-1', seq: 2 },
    ]);
    await waitFor(() => out.records.length >= 2, { description: 'second output' });
    await waitFor(async () => (await committedOffset(setup.topic)) === '3', { description: 'offset 3 committed' });
    expect(values(out)).toEqual(['m-1', 'm-2']);
  });

  it('remembers the last dedupeMaxIdsPerPartition ids: a duplicate of an older one is processed again', async () => {
    const setup = await setUp(1, { tuning: { dedupeMaxIdsPerPartition: 2 } });
    const out = await setup.collect(setup.output);
    await setup.startConsumer();
    await setup.publish(['m-1', 'm-2', 'm-3'].map((id, seq) => ({ id, task: 't-1', seq })));
    await waitFor(async () => (await committedOffset(setup.topic)) === '3', { description: 'offset 3 committed' });
    await setup.publish(['m-3', 'm-1'].map((id, seq) => ({ id, task: 't-1', seq: 3 + seq })));
    await waitFor(() => out.records.length >= 4, { description: 'four outputs' });
    await waitFor(async () => (await committedOffset(setup.topic)) === '5', { description: 'offset 5 committed' });
    expect(values(out)).toEqual(['m-1', 'm-2', 'm-3', 'm-1']);
  });

  it('retries a transient failure and succeeds; dead-letters one that always fails after its attempts', async () => {
    const setup = await setUp();
    const out = await setup.collect(setup.output);
    const dlq = await setup.collect(`${setup.topic}.dlq`);
    await setup.startConsumer();
    await setup.publish([
      { id: 'flaky', task: 't-1', seq: 1, failures: 2 },
      { id: 'doomed', task: 't-2', seq: 1, failures: -1 },
    ]);
    await waitFor(() => out.records.length === 1 && dlq.records.length === 1, {
      description: 'output and dead letter',
    });
    expect(values(out)).toEqual(['flaky']);
    expect(setup.handled.filter((entry) => entry.id === 'flaky').map((entry) => entry.attempt)).toEqual([1, 2, 3]);
    expect(setup.handled.filter((entry) => entry.id === 'doomed').map((entry) => entry.attempt)).toEqual([1, 2, 3]);
    const [letter] = dlq.records;
    expect(letter?.key).toBe('t-2');
    expect(JSON.parse(letter?.value?.toString() ?? '')).toEqual({ id: 'doomed', task: 't-2', seq: 1, failures: -1 });
    expect(letter?.headers).toMatchObject({
      '__connect.errors.topic': setup.topic,
      '__connect.errors.partition': '0',
      '__connect.errors.offset': '1',
      '__connect.errors.stage': 'process',
      '__connect.errors.class.name': 'Error',
      '__connect.errors.exception.message': 'gave up after 3 attempts: transient failure 3 of doomed',
      'baton.dlq.error.code': 'RETRIES_EXHAUSTED',
      'baton.dlq.error.retriable': 'false',
      'baton.dlq.attempts': '3',
      'baton.dlq.consumer.group': `${setup.topic}.group`,
    });
  });

  it('waits out a platform outage without spending the message’s retries', async () => {
    const setup = await setUp();
    const out = await setup.collect(setup.output);
    await setup.startConsumer();
    await setup.publish([{ id: 'patient', task: 't-1', seq: 1, retries: 0, outages: 4 }]);
    await waitFor(() => out.records.length === 1, { description: 'the output after the outage' });
    expect(setup.handled).toEqual([1, 1, 1, 1, 1].map((attempt) => ({ id: 'patient', attempt })));
  });

  it('follows the message’s own retry limit', async () => {
    const setup = await setUp();
    const dlq = await setup.collect(`${setup.topic}.dlq`);
    await setup.startConsumer();
    await setup.publish([{ id: 'once', task: 't-1', seq: 1, failures: -1, retries: 0 }]);
    await waitFor(() => dlq.records.length === 1, { description: 'dead letter' });
    expect(setup.handled).toEqual([{ id: 'once', attempt: 1 }]);
    expect(dlq.records[0]?.headers['baton.dlq.attempts']).toBe('1');
  });

  it('lets other tasks on the partition finish while one retries, and keeps the retried task in order', async () => {
    const setup = await setUp(1);
    const out = await setup.collect(setup.output);
    await setup.startConsumer();
    await setup.publish([
      { id: 'a1', task: 'task-a', seq: 1, failures: 2 },
      { id: 'a2', task: 'task-a', seq: 2 },
      { id: 'b1', task: 'task-b', seq: 1 },
      { id: 'b2', task: 'task-b', seq: 2 },
    ]);
    await waitFor(() => out.records.length === 4, { description: 'four outputs' });
    const order = values(out);
    expect(order.filter((id) => id.startsWith('a'))).toEqual(['a1', 'a2']);
    expect(order.indexOf('b2')).toBeLessThan(order.indexOf('a1'));
    expect(setup.handled.filter((entry) => entry.id === 'a2')).toEqual([{ id: 'a2', attempt: 1 }]);
    await waitFor(async () => (await committedOffset(setup.topic)) === '4', { description: 'offset 4 committed' });
  });

  it('skips a redelivery of a message it dead-lettered, processes it again as a replay, and only once', async () => {
    const setup = await setUp();
    const out = await setup.collect(setup.output);
    const dlq = await setup.collect(`${setup.topic}.dlq`);
    await setup.startConsumer();
    await setup.publish([{ id: 'r-1', task: 't-1', seq: 1, failures: -1, retries: 0 }]);
    await waitFor(() => dlq.records.length === 1, { description: 'dead letter' });
    // The same message delivered again, the cause now gone: still a duplicate of the dead letter.
    await setup.publish([
      { id: 'r-1', task: 't-1', seq: 1 },
      { id: 'after-redelivery', task: 't-1', seq: 2 },
    ]);
    await waitFor(() => out.records.length === 1, { description: 'the marker after the redelivery' });
    const replay = { [REPLAY_HEADERS.id]: 'replay-1', [REPLAY_HEADERS.actor]: 'ops' };
    await setup.publish([{ id: 'r-1', task: 't-1', seq: 1 }], replay);
    await setup.publish([{ id: 'r-1', task: 't-1', seq: 1 }], { ...replay, [REPLAY_HEADERS.id]: 'replay-2' });
    await setup.publish([{ id: 'after-replays', task: 't-1', seq: 3 }]);
    await waitFor(() => out.records.length === 3, { description: 'the replay and the last marker' });
    expect(values(out)).toEqual(['after-redelivery', 'r-1', 'after-replays']);
    expect(setup.handled.map((entry) => entry.id)).toEqual(['r-1', 'after-redelivery', 'r-1', 'after-replays']);
  });

  it('runs the tasks of one partition concurrently up to its bound, each task in order', async () => {
    let inFlight = 0;
    let peak = 0;
    const { promise: gate, open: openGate } = newGate();
    const setup = await setUp(1, {
      tuning: { maxConcurrency: 8 },
      async whileHandling() {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        // Every handler waits until eight run at once: only concurrent handling gets past.
        if (inFlight === 8) openGate();
        await gate;
        inFlight -= 1;
      },
    });
    const out = await setup.collect(setup.output);
    await setup.startConsumer();
    const messages = Array.from({ length: 12 }, (_, task) =>
      [1, 2, 3].map((seq) => ({ id: `t${task}-${seq}`, task: `task-${task}`, seq })),
    ).flat();
    await setup.publish(messages);
    await waitFor(() => out.records.length === 36, { description: '36 outputs' });
    expect(peak).toBe(8);
    expect(new Set(values(out)).size).toBe(36);
    for (let task = 0; task < 12; task += 1) {
      expect(values(out).filter((id) => id.startsWith(`t${task}-`))).toEqual([
        `t${task}-1`,
        `t${task}-2`,
        `t${task}-3`,
      ]);
    }
    await waitFor(async () => (await committedOffset(setup.topic)) === '36', { description: 'offset 36 committed' });
  });

  it('takes in messages up to its byte bound while they are in progress, then the next as room comes back', async () => {
    const messages = Array.from({ length: 20 }, (_, i) => ({
      id: `m-${String(i).padStart(2, '0')}`,
      task: `task-${String(i).padStart(2, '0')}`,
      seq: i,
      pad: 'x'.repeat(1_000),
    }));
    // What a message holds of the buffer: its value and key (all the same size here).
    const size = Buffer.byteLength(JSON.stringify(messages[0])) + (messages[0] as TestMessage).task.length;
    const started: { consumer?: ExactlyOnceConsumer<TestMessage> } = {};
    let peak = 0;
    const { promise: gate, open: openGate } = newGate();
    const setup = await setUp(1, {
      // Room for five of them by bytes, where the message bound and the concurrency would take all 20.
      tuning: { maxBufferedBytes: 5 * size + Math.floor(size / 2) },
      async whileHandling() {
        const held = started.consumer?.uncommitted ?? 0;
        peak = Math.max(peak, held);
        if (held === 5) openGate();
        await gate;
      },
    });
    const out = await setup.collect(setup.output);
    started.consumer = await setup.startConsumer();
    await setup.publish(messages);
    await waitFor(() => out.records.length === 20, { description: '20 outputs' });
    expect(peak).toBe(5);
    expect(values(out).sort()).toEqual(messages.map((message) => message.id));
  });

  it('loses and repeats nothing when a second instance joins mid-run and partitions move', async () => {
    let partitionsReady = 0;
    const { promise: gate, open: openGate } = newGate();
    const setup = await setUp(4, {
      // Held until the second instance has taken up its partitions, so the rebalance meets
      // messages in progress: the first instance keeps partitions whose committed offset lags.
      whileHandling: (message) => (message.seq >= 100 ? gate : Promise.resolve()),
      observer: {
        partitionReady: () => {
          partitionsReady += 1;
          if (partitionsReady === 6) openGate();
        },
      },
    });
    const out = await setup.collect(setup.output);
    await setup.startConsumer('instance-1');
    const batch = (from: number) =>
      Array.from({ length: 200 }, (_, i) => ({ id: `m-${from + i}`, task: `task-${(from + i) % 40}`, seq: from + i }));
    await setup.publish(batch(0));
    await waitFor(() => out.records.length >= 100, { description: 'the first instance under way' });
    await setup.startConsumer('instance-2');
    await setup.publish(batch(200));
    await waitFor(() => new Set(values(out)).size === 400, { description: '400 distinct outputs' });
    expect(out.records).toHaveLength(400);
    for (let task = 0; task < 40; task += 1) {
      const seqs = values(out)
        .map((id) => Number(id.slice(2)))
        .filter((seq) => seq % 40 === task);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    }
  });

  it('commits past the commit marker of the transaction it read, and past an aborted one, so a consumed partition lags by nothing', async () => {
    const setup = await setUp();
    const out = await setup.collect(setup.output);
    await setup.startConsumer();
    // Written as the router writes an inbox: transactions.
    const writer = rawKafkajs(brokers, uniqueName('writer')).producer({
      transactionalId: uniqueName('writer'),
      idempotent: true,
      maxInFlightRequests: 1,
    });
    await writer.connect();
    cleanups.push(() => writer.disconnect());
    const messages = (ids: string[]) =>
      ids.map((id, seq) => ({ key: 't-1', value: JSON.stringify({ id, task: 't-1', seq }) }));
    // Three records, offsets 0 to 2, and the commit marker at 3.
    const committed = await writer.transaction();
    await committed.send({ topic: setup.topic, messages: messages(['m-1', 'm-2', 'm-3']) });
    await committed.commit();
    await waitFor(() => out.records.length === 3, { description: 'three outputs' });
    // 4, past the marker; 3 would leave the group one offset behind for ever: a lag of 1 on an idle partition.
    await waitFor(async () => (await committedOffset(setup.topic)) === '4', { description: 'offset 4 committed' });
    // Two records aborted, 4 and 5, and the abort marker at 6: a fetch with nothing to hand over,
    // committed by a transaction of the offset alone.
    const aborted = await writer.transaction();
    await aborted.send({ topic: setup.topic, messages: messages(['a-1', 'a-2']) });
    await aborted.abort();
    await waitFor(async () => (await committedOffset(setup.topic)) === '7', { description: 'offset 7 committed' });
    expect(values(out)).toEqual(['m-1', 'm-2', 'm-3']);
    expect(setup.handled.map((entry) => entry.id)).toEqual(['m-1', 'm-2', 'm-3']);
  });

  it('commits many messages per transaction', async () => {
    const transactions: number[] = [];
    const setup = await setUp(1, { observer: { transactionCommitted: ({ messages }) => transactions.push(messages) } });
    const out = await setup.collect(setup.output);
    await setup.startConsumer();
    await setup.publish(Array.from({ length: 300 }, (_, i) => ({ id: `m-${i}`, task: `task-${i % 50}`, seq: i })));
    await waitFor(() => out.records.length === 300, { description: '300 outputs' });
    await waitFor(() => transactions.reduce((sum, count) => sum + count, 0) === 300, {
      description: 'every message committed',
    });
    // One transaction per message would be 300; batches of a fetch or of 100 ms take far fewer. The
    // 300 were published in one request, so the first fetch brings many: not one committed alone.
    expect(transactions.length).toBeLessThanOrEqual(30);
    expect(transactions[0]).toBeGreaterThan(1);
    expect(new Set(values(out)).size).toBe(300);
  });

  it('closing waits for the handlers running, and leaves the messages waiting for a slot to the next owner', async () => {
    let running = 0;
    const { promise: bothRunning, open: twoRunning } = newGate();
    const { promise: gate, open: openGate } = newGate();
    const setup = await setUp(1, {
      tuning: { maxConcurrency: 2 },
      async whileHandling() {
        running += 1;
        if (running === 2) twoRunning();
        await gate;
      },
    });
    const out = await setup.collect(setup.output);
    const first = await setup.startConsumer('instance-1');
    await setup.publish(Array.from({ length: 10 }, (_, i) => ({ id: `m-${i}`, task: `task-${i}`, seq: i })));
    await bothRunning;
    const closing = first.close();
    openGate();
    await closing;
    // Only the two whose handlers ran when it closed; the other eight waited for a slot.
    expect(setup.handled.map((entry) => entry.id).sort()).toEqual(['m-0', 'm-1']);
    await setup.startConsumer('instance-2');
    await waitFor(() => out.records.length >= 10, { description: '10 outputs' });
    await waitFor(async () => (await committedOffset(setup.topic)) === '10', { description: 'offset 10 committed' });
    expect(values(out).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `m-${i}`).sort());
    expect(setup.handled).toHaveLength(10);
  });

  it('takes the partition up again from its committed offset after a failed transaction, each output once', async () => {
    const restarts: string[] = [];
    const setup = await setUp(1, {
      observer: { partitionStartFailed: ({ error }) => restarts.push(error.message) },
    });
    const out = await setup.collect(setup.output);
    await setup.startConsumer();
    await setup.publish([
      { id: 'before', task: 't-1', seq: 1 },
      { id: 'huge-once', task: 't-2', seq: 1, oversizedOnce: true },
      { id: 'after', task: 't-3', seq: 1 },
    ]);
    await waitFor(() => out.records.length === 3, { description: 'three outputs' });
    await waitFor(async () => (await committedOffset(setup.topic)) === '3', { description: 'offset 3 committed' });
    expect([...values(out)].sort()).toEqual(['after', 'before', 'huge-once']);
    expect(restarts.length).toBeGreaterThanOrEqual(1);
    expect(restarts[0]).toMatch(/^transaction failed: /);
  });

  it('takes a fenced partition up again while the group still assigns it here, each output once', async () => {
    const restarts: string[] = [];
    const setup = await setUp(1, {
      observer: { partitionStartFailed: ({ error }) => restarts.push(error.message) },
    });
    const out = await setup.collect(setup.output);
    await setup.startConsumer();
    await setup.publish([{ id: 'before', task: 't-1', seq: 1 }]);
    await waitFor(() => out.records.length === 1, { description: 'the first output' });
    // A new producer of the partition's transactional id bumps its epoch, as a coordinator does
    // after a failover: the consumer's next transaction is refused as fenced, and no other
    // instance of the group owns the partition.
    const fencer = rawKafkajs(brokers, uniqueName('fencer')).producer({
      transactionalId: `${setup.topic}.group.${setup.topic}.0`,
      idempotent: true,
      maxInFlightRequests: 1,
    });
    await fencer.connect();
    await (await fencer.transaction()).abort();
    await fencer.disconnect();
    await setup.publish([{ id: 'after', task: 't-2', seq: 1 }]);
    await waitFor(() => out.records.length === 2, { description: 'the output of the message after the fencing' });
    await waitFor(
      async () => (await committedOffset(setup.topic)) !== undefined && Number(await committedOffset(setup.topic)) >= 2,
      {
        description: 'both messages committed',
      },
    );
    expect(values(out)).toEqual(['before', 'after']);
    expect(restarts.some((message) => /^fenced: (INVALID_PRODUCER_EPOCH|PRODUCER_FENCED)$/.test(message))).toBe(true);
  });

  it('dead-letters bytes it cannot decode with the original value and headers, and keeps running', async () => {
    const setup = await setUp();
    const out = await setup.collect(setup.output);
    const dlq = await setup.collect(`${setup.topic}.dlq`);
    await setup.startConsumer();
    await setup.publish([Buffer.from([0xde, 0xad, 0xbe, 0xef]), { id: 'after', task: 't-9', seq: 1 }]);
    await waitFor(() => dlq.records.length === 1 && out.records.length === 1, {
      description: 'dead letter and output',
    });
    expect([...(dlq.records[0]?.value ?? [])]).toEqual([0xde, 0xad, 0xbe, 0xef]);
    expect(dlq.records[0]?.headers).toMatchObject({
      origin: 'test',
      '__connect.errors.stage': 'decode',
      'baton.dlq.error.code': 'WIRE_FORMAT_INVALID',
      'baton.dlq.attempts': '1',
    });
    expect(values(out)).toEqual(['after']);
  });
});

async function committedOffset(topic: string): Promise<string | undefined> {
  const admin = rawKafkajs(brokers, uniqueName('offsets')).admin();
  await admin.connect();
  try {
    const [entry] = await admin.fetchOffsets({ groupId: `${topic}.group`, topics: [topic] });
    return entry?.partitions[0]?.offset;
  } finally {
    await admin.disconnect();
  }
}
