import { describe, expect, it } from 'vitest';
import { coordinatorOf, coordinatorPartition, fullyReplicated, type PartitionReplicas } from './replication.js';
import { idsCoveringPartitions } from './warm-up.js';

describe('coordinatorPartition', () => {
  // Expected values from Java: (id.hashCode() & 0x7fffffff) % partitions.
  it.each([
    ['router', 3, 2],
    ['router', 50, 15],
    ['probe_agent', 3, 1],
    ['probe_agent', 50, 32],
    ['baton-test.router.baton-test.inbound.2', 3, 1],
    ['a-much-longer-transactional-id.with.many.characters.17', 50, 28],
    ['', 3, 0],
  ])('places %j among %i partitions at %i, as Kafka does', (id, partitions, expected) => {
    expect(coordinatorPartition(id, partitions)).toBe(expected);
  });
});

const partition = (topic: string, index: number, leader: number, isr = [1, 2, 3]): PartitionReplicas => ({
  topic,
  partition: index,
  leader,
  replicas: [1, 2, 3],
  isr,
});

describe('coordinatorOf', () => {
  const metadata = [
    partition('__consumer_offsets', 0, 3),
    partition('__consumer_offsets', 1, 1),
    partition('__consumer_offsets', 2, 2),
    partition('__transaction_state', 0, 2),
    partition('__transaction_state', 1, -1),
    partition('__transaction_state', 2, 1),
  ];

  it("is the leader of the id's partition of the coordinator topic", () => {
    expect(coordinatorOf('group', 'router', metadata)).toBe(2);
    expect(coordinatorOf('group', 'probe_agent', metadata)).toBe(1);
    expect(coordinatorOf('transaction', 'router', metadata)).toBe(1);
  });

  it('is unknown while that partition has no leader, or the topic does not exist yet', () => {
    expect(coordinatorOf('transaction', 'probe_agent', metadata)).toBeUndefined();
    expect(coordinatorOf('group', 'router', [])).toBeUndefined();
  });
});

describe('fullyReplicated', () => {
  it('holds when every partition has a leader and all its replicas in sync', () => {
    expect(fullyReplicated([partition('a', 0, 1), partition('a', 1, 2)])).toBe(true);
    expect(fullyReplicated([partition('a', 0, 1), partition('a', 1, 2, [2, 3])])).toBe(false);
    expect(fullyReplicated([partition('a', 0, -1)])).toBe(false);
  });
});

describe('idsCoveringPartitions', () => {
  it('names one id placed in each coordinator partition, the prefix itself first where it lands', () => {
    const ids = idsCoveringPartitions('baton-warm-up', 3);
    expect(ids).toHaveLength(3);
    expect(ids.map((id) => coordinatorPartition(id, 3))).toEqual([0, 1, 2]);
    expect(ids).toContain('baton-warm-up');
    expect(idsCoveringPartitions('baton-warm-up', 1)).toEqual(['baton-warm-up']);
  });
});
