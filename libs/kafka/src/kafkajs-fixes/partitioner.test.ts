import { describe, expect, it } from 'vitest';
// Before kafkajs, as in the lib: the fixes go into place when create-kafka.ts loads.
import { createKafka } from '../create-kafka.js';
import { Partitioners, type PartitionMetadata } from 'kafkajs';
import { javaCompatiblePartitioner } from './partitioner.js';

createKafka({ brokers: ['localhost:9092'], clientId: 'test' });

function partitions(leaders: number[]): PartitionMetadata[] {
  return leaders.map((leader, partitionId) => ({
    partitionId,
    partitionErrorCode: 0,
    leader,
    replicas: [1],
    isr: [1],
  }));
}

describe('javaCompatiblePartitioner', () => {
  it("partitions keyed and addressed messages as kafkajs's DefaultPartitioner does", () => {
    const ours = javaCompatiblePartitioner();
    const theirs = Partitioners.DefaultPartitioner();
    const messages = [
      ...Array.from({ length: 200 }, (_, i) => ({ key: `task-${i}`, value: null })),
      { key: 'naïve café ☕', value: null },
      { key: Buffer.from([0xff, 0x00, 0x80]), value: null },
      { key: '', value: null },
      { key: 'task-1', partition: 4, value: null },
      { key: null, partition: 0, value: null },
    ];
    for (const partitionMetadata of [partitions([1, 1, 1, 1, 1, 1]), partitions([1, -1, 1]), partitions([1])]) {
      const args = (message: (typeof messages)[number]) => ({ topic: 't', partitionMetadata, message });
      expect(messages.map((message) => ours(args(message)))).toStrictEqual(
        messages.map((message) => theirs(args(message))),
      );
    }
  });

  it('gives keyless messages the available partitions in turn, and any partition when none has a leader', () => {
    const partitioner = javaCompatiblePartitioner();
    const keyless = (partitionMetadata: PartitionMetadata[], topic = 't') =>
      Array.from({ length: 6 }, () => partitioner({ topic, partitionMetadata, message: { key: null, value: null } }));
    const available = keyless(partitions([1, -1, 1, -1]));
    expect(available.every((partition) => partition === 0 || partition === 2)).toBe(true);
    expect(available.slice(0, 2).sort()).toStrictEqual([0, 2]);
    // Consecutive, so each partition every other message.
    expect(available.filter((partition) => partition === 0)).toHaveLength(3);
    const none = keyless(partitions([-1, -1, -1]), 'u');
    expect(new Set(none)).toStrictEqual(new Set([0, 1, 2]));
  });
});
