import { describe, expect, it } from 'vitest';
import { kafkajsOriginal } from './kafkajs-original.test-helper.js';
import { PartitionTurns, SequenceUnresolvedError } from './partition-turns.js';
import { sendingPerPartition, type Message, type TopicMessages } from './send-per-partition.js';

type Factory = Parameters<typeof sendingPerPartition>[0];
type GroupMessages = Parameters<typeof sendingPerPartition>[1];
type Send = ReturnType<Factory>;
const originalSendMessages = kafkajsOriginal<Factory>('kafkajs/src/producer/sendMessages.js');
const groupMessagesPerPartition = kafkajsOriginal<GroupMessages>('kafkajs/src/producer/groupMessagesPerPartition.js');
const createRetry = kafkajsOriginal<(options: object) => never>('kafkajs/src/retry/index.js');
const createEosManager = kafkajsOriginal<(options: object) => { initProducerId(): Promise<void> }>(
  'kafkajs/src/producer/eosManager/index.js',
);

const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

interface WrittenBatch {
  firstSequence: number;
  lastSequence: number;
  baseOffset: number;
}

/**
 * One broker leading the partitions of topic `t`, keeping an idempotent producer's sequence numbers
 * per partition as Kafka does: a batch with the next number is appended, one with the number of a batch it
 * wrote is answered as that batch (a duplicate, with success), any other is out of order. A test
 * may make it drop the connection after writing a request, before answering.
 */
function broker() {
  const logs = new Map<number, string[]>();
  const batches = new Map<number, WrittenBatch[]>();
  let dropAfterWriting = 0;
  const node = {
    nodeId: 1,
    initProducerId: async () => ({ producerId: 7, producerEpoch: 0 }),
    produce: async ({ topicData }: { topicData: { topic: string; partitions: PartitionRequest[] }[] }) => {
      // A turn of the event loop, so that concurrent sends meet here as they would at a broker.
      await new Promise((resolve) => setImmediate(resolve));
      const partitions = (topicData[0] as { partitions: PartitionRequest[] }).partitions.map(
        ({ partition, firstSequence, messages }) => {
          const log = logs.get(Number(partition)) ?? [];
          logs.set(Number(partition), log);
          const written = batches.get(Number(partition)) ?? [];
          batches.set(Number(partition), written);
          const lastSequence = firstSequence + messages.length - 1;
          const duplicate = written.find((batch) => batch.firstSequence === firstSequence);
          if (duplicate !== undefined)
            return { partition: Number(partition), errorCode: 0, baseOffset: String(duplicate.baseOffset) };
          const expected = (written.at(-1)?.lastSequence ?? -1) + 1;
          if (firstSequence !== expected) {
            throw Object.assign(new Error('The broker received an out of order sequence number'), {
              name: 'KafkaJSProtocolError',
              type: 'OUT_OF_ORDER_SEQUENCE_NUMBER',
              retriable: false,
            });
          }
          written.push({ firstSequence, lastSequence, baseOffset: log.length });
          const baseOffset = log.length;
          log.push(...messages.map(({ value }) => value as string));
          return { partition: Number(partition), errorCode: 0, baseOffset: String(baseOffset) };
        },
      );
      if (dropAfterWriting > 0) {
        dropAfterWriting -= 1;
        throw Object.assign(new Error('Closed connection'), {
          name: 'KafkaJSConnectionClosedError',
          retriable: true,
          host: 'localhost',
          port: 9092,
        });
      }
      return { topics: [{ topicName: 't', partitions }] };
    },
  };
  return {
    node,
    /** The values written to `partition`, in offset order. */
    log: (partition: number) => logs.get(partition) ?? [],
    dropNextAnswers(count: number) {
      dropAfterWriting = count;
    },
  };
}

interface PartitionRequest {
  partition: number;
  firstSequence: number;
  messages: Message[];
}

/** An idempotent producer's sender of kafkajs, on `node`, with partitions 0 and 1 of `t`. */
async function idempotentSender(node: ReturnType<typeof broker>['node'], fixed: boolean, retries: number) {
  const cluster = {
    retry: { retries: 0 },
    addMultipleTargetTopics: async () => undefined,
    refreshMetadataIfNecessary: async () => undefined,
    refreshMetadata: async () => undefined,
    isConnected: () => true,
    removeBroker: () => undefined,
    findControllerBroker: async () => node,
    findBroker: async () => node,
    findTopicPartitionMetadata: () => [
      { partitionId: 0, leader: 1 },
      { partitionId: 1, leader: 1 },
    ],
    findLeaderForPartitions: (_topic: string, partitions: number[]) => ({ 1: partitions }),
  };
  const eosManager = createEosManager({ logger: quiet, cluster, transactional: false });
  await eosManager.initProducerId();
  const options = {
    logger: quiet,
    cluster,
    eosManager,
    partitioner: ({ message }: { message: Message }) => message.partition as number,
    retrier: createRetry({ retries, initialRetryTime: 1, maxRetryTime: 2 }),
  };
  const factory = fixed ? sendingPerPartition(originalSendMessages, groupMessagesPerPartition) : originalSendMessages;
  const send: Send = factory(options);
  return (partition: number, value: string) =>
    send({ acks: -1, topicMessages: [{ topic: 't', messages: [{ partition, value }] }] as TopicMessages[] });
}

describe('an idempotent producer sending to one partition twice at once, its first request written and its answer lost', () => {
  /** Sends `a` and `b` to partition 0 at once, the first request's answer lost: their offsets, and what partition 0 holds. */
  async function twoAtOnce(fixed: boolean) {
    const { node, log, dropNextAnswers } = broker();
    const send = await idempotentSender(node, fixed, 5);
    dropNextAnswers(1);
    const answers = await Promise.all([send(0, 'a'), send(0, 'b')]);
    return { offsets: answers.map(([answer]) => answer?.baseOffset), written: log(0) };
  }

  it("in kafkajs, the second send takes the first's sequence number back and is answered as a duplicate: lost", async () => {
    expect(await twoAtOnce(false)).toEqual({ offsets: ['1', '0'], written: ['a', 'a'] });
  });

  it('with the fix, the second send waits for the first to be acknowledged: both written once', async () => {
    expect(await twoAtOnce(true)).toEqual({ offsets: ['0', '1'], written: ['a', 'b'] });
  });

  it('with the fix, a send that failed for good leaves its partition refused, unsent; other partitions go on', async () => {
    const { node, log, dropNextAnswers } = broker();
    const send = await idempotentSender(node, true, 0);
    dropNextAnswers(1);
    const [first, second] = await Promise.allSettled([send(0, 'a'), send(0, 'b')]);

    expect(first).toMatchObject({ status: 'rejected', reason: { name: 'KafkaJSNumberOfRetriesExceeded' } });
    expect(second).toMatchObject({ status: 'rejected', reason: expect.any(SequenceUnresolvedError) });
    await expect(send(0, 'c')).rejects.toThrow('the sequence numbers of t-0 are unknown after a failed send');
    await expect(send(1, 'd')).resolves.toEqual([expect.objectContaining({ partition: 1, baseOffset: '0' })]);
    expect(log(0)).toEqual(['a']);
    expect(log(1)).toEqual(['d']);
  });
});

describe('PartitionTurns', () => {
  it('lets one holder of a key at a time, in the order asked, and keys apart at once', async () => {
    const turns = new PartitionTurns();
    const order: string[] = [];
    const first = await turns.take(['k']);
    const second = turns.take(['k']).then((release) => {
      order.push('second');
      return release;
    });
    const other = await turns.take(['j']);
    order.push('other');
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['other']);
    first();
    (await second)();
    other();
    expect(order).toEqual(['other', 'second']);
  });

  it('takes several keys in one order, so two sends sharing them both finish', async () => {
    const turns = new PartitionTurns();
    const held = await turns.take(['b', 'a']);
    const both = [turns.take(['a', 'b']), turns.take(['b', 'a'])];
    held();
    for (const take of both) (await take)();
    await expect(turns.take(['a', 'b'])).resolves.toBeTypeOf('function');
  });

  it('refuses an unresolved key, naming it as Kafka does, and holds nothing after refusing', async () => {
    const turns = new PartitionTurns();
    turns.markUnresolved(['t\u00000']);
    await expect(turns.take(['t\u00001', 't\u00000'])).rejects.toThrow(
      'the sequence numbers of t-0 are unknown after a failed send',
    );
    (await turns.take(['t\u00001']))();
  });
});
