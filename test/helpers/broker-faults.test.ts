import { expect, it } from 'vitest';
import type { PartitionReplicas } from '@baton/kafka';
import { mostCommon, mostLeading } from './broker-faults.js';

const led = (topic: string, partition: number, leader: number): PartitionReplicas => ({
  topic,
  partition,
  leader,
  replicas: [1, 2, 3],
  isr: [1, 2, 3],
});

it("mostLeading counts the leaders of the run's topics only", () => {
  const replicas = [
    led('chaos-x.handoffs.inbound', 0, 2),
    led('chaos-x.handoffs.inbound', 1, 2),
    led('chaos-x.events', 0, 3),
    led('__consumer_offsets', 0, 3),
    led('__consumer_offsets', 1, 3),
    led('other.events', 0, 3),
  ];
  expect(mostLeading(replicas, 'chaos-x')).toBe(2);
});

it('mostCommon takes the lowest node on a tie and ignores partitions without a leader', () => {
  expect(mostCommon([3, 1, 3, 1, -1, -1, -1, undefined])).toBe(1);
  expect(mostCommon([2, 3, 3])).toBe(3);
  expect(mostCommon([undefined, -1])).toBeUndefined();
});
