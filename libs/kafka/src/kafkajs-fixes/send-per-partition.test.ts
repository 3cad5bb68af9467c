import { describe, expect, it } from 'vitest';
import { createKafka } from '../create-kafka.js';
import { kafkajsOriginal } from './kafkajs-original.test-helper.js';
import { kafkajsModuleExports } from './module-replacement.js';
import {
  patchSendPerPartition,
  sendingPerPartition,
  unacknowledgedByLeader,
  type Message,
  type PartitionResponse,
  type TopicMessages,
} from './send-per-partition.js';

type Factory = Parameters<typeof sendingPerPartition>[0];
type GroupMessages = Parameters<typeof sendingPerPartition>[1];
const createRetry = kafkajsOriginal<(options: object) => never>('kafkajs/src/retry/index.js');
const groupMessagesPerPartition = kafkajsOriginal<GroupMessages>('kafkajs/src/producer/groupMessagesPerPartition.js');

/**
 * A cluster of one topic, `t`, whose partitions' leaders a test moves, and a sender for one
 * attempt that fails for the leaders a test names once each, as a killed broker's requests do.
 */
function setUp(leaders: Record<number, number>, failOnce: number[]) {
  const sends: TopicMessages[][] = [];
  const cluster = {
    addMultipleTargetTopics: async () => undefined,
    refreshMetadataIfNecessary: async () => undefined,
    refreshMetadata: async () => undefined,
    findTopicPartitionMetadata: () =>
      Object.entries(leaders).map(([partitionId, leader]) => ({ partitionId: Number(partitionId), leader })),
    findLeaderForPartitions: (_topic: string, partitions: number[]) => {
      const byLeader: Record<string, number[]> = {};
      for (const partition of partitions) (byLeader[leaders[partition] as number] ??= []).push(partition);
      return byLeader;
    },
  };
  const original: Factory =
    () =>
    async ({ topicMessages }) => {
      sends.push(topicMessages);
      const leader = leaders[(topicMessages[0]?.messages[0] as Message).partition as number] as number;
      if (failOnce.includes(leader)) {
        failOnce.splice(failOnce.indexOf(leader), 1);
        // The broker died: its partitions now have another leader.
        for (const [partition, led] of Object.entries(leaders)) if (led === leader) leaders[Number(partition)] = 1;
        throw Object.assign(new Error('Connection error: connect ECONNREFUSED'), {
          name: 'KafkaJSConnectionError',
          retriable: true,
        });
      }
      return topicMessages.flatMap(({ topic, messages }) =>
        [...new Set(messages.map((message) => message.partition as number))].map((partition): PartitionResponse => ({
          topicName: topic,
          partition,
          errorCode: 0,
        })),
      );
    };
  const send = sendingPerPartition(
    original,
    groupMessagesPerPartition,
  )({
    cluster,
    partitioner: ({ message }) => message.partition as number,
    retrier: createRetry({ retries: 3, initialRetryTime: 1, maxRetryTime: 2 }),
  });
  return { send, sends };
}

describe("kafkajs's producer send, its answers kept per partition", () => {
  it('sends again only the partitions not acknowledged, to their new leader, even one that answered before', async () => {
    const { send, sends } = setUp({ 0: 1, 1: 2 }, [2]);
    const responses = await send({
      topicMessages: [
        {
          topic: 't',
          messages: [
            { partition: 0, value: 'a' },
            { partition: 1, value: 'b' },
          ],
        },
      ],
    });

    expect(responses).toEqual(
      expect.arrayContaining([
        { topicName: 't', partition: 0, errorCode: 0 },
        { topicName: 't', partition: 1, errorCode: 0 },
      ]),
    );
    expect(responses).toHaveLength(2);
    const sentValues = sends.map((request) => request.flatMap(({ messages }) => messages.map((m) => m.value)));
    // Partition 0 once; partition 1 twice: to its failed leader, then to broker 1, which had answered.
    expect(sentValues.flat().sort()).toEqual(['a', 'b', 'b']);
    expect(sentValues.at(-1)).toEqual(['b']);
  });

  it('fails as kafkajs does once the retries are spent', async () => {
    const { send } = setUp({ 0: 2 }, [2, 1, 1, 1, 1]);
    await expect(send({ topicMessages: [{ topic: 't', messages: [{ partition: 0 }] }] })).rejects.toMatchObject({
      name: 'KafkaJSNumberOfRetriesExceeded',
    });
  });
});

it('unacknowledgedByLeader groups what is still to send by the current leaders, partitions set', () => {
  const a: Message = { value: 'a' };
  const b: Message = { value: 'b' };
  const c: Message = { value: 'c' };
  const byPartition = new Map([
    ['x\u00000', { topic: 'x', partition: 0, messages: [a] }],
    ['x\u00001', { topic: 'x', partition: 1, messages: [b] }],
    ['y\u00000', { topic: 'y', partition: 0, messages: [c] }],
  ]);
  const groups = unacknowledgedByLeader(byPartition, new Set(['x\u00000']), (topic) => (topic === 'x' ? 2 : 3));
  expect([...groups]).toEqual([
    [2, [{ topic: 'x', messages: [{ value: 'b', partition: 1 }] }]],
    [3, [{ topic: 'y', messages: [{ value: 'c', partition: 0 }] }]],
  ]);
});

it('is in kafkajs’s place once @baton/kafka is loaded', () => {
  createKafka({ brokers: ['localhost:9092'], clientId: 'patch-check' });
  expect(patchSendPerPartition().status).toBe('applied');
  expect(kafkajsModuleExports('kafkajs/src/producer/sendMessages.js')).not.toBe(
    kafkajsOriginal<unknown>('kafkajs/src/producer/sendMessages.js'),
  );
});
