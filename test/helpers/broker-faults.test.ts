import { expect, it } from 'vitest';
import type { PartitionReplicas } from '@baton/kafka';
import type { LocalKafka } from '@baton/local-infra';
import { brokerFaults, mostCommon, mostLeading } from './broker-faults.js';

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

it('brokerFaults cuts a broker off the network last, and only on a cluster whose brokers have networks of their own', () => {
  const faults = (isolated: boolean) =>
    brokerFaults({ isolated } as LocalKafka, 1_000).map(({ name, atProgress }) => [name, atProgress]);
  const others = [
    ["SIGKILL the leader of most of the run's partitions", 100],
    ["SIGKILL the transaction coordinator of most of the router's producers", 250],
    ["SIGKILL the group coordinator of the agent's group", 400],
    ["freeze the leader of most of the run's partitions (SIGSTOP) for 15 s, then SIGCONT", 550],
    ['rolling restart of every broker, one after another', 700],
  ];
  expect(faults(false)).toEqual(others);
  expect(faults(true)).toEqual([
    ...others,
    ["cut the leader of most of the run's partitions off the network for 30 s", 800],
  ]);
});
