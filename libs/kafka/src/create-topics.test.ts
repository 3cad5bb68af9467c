import { describe, expect, it } from 'vitest';
import { withMinInsyncReplicas } from './create-topics.js';

describe('withMinInsyncReplicas', () => {
  it('asks a majority of three or more replicas to be in sync for a write', () => {
    expect(withMinInsyncReplicas({ topic: 't', numPartitions: 6, replicationFactor: 3 })).toEqual({
      topic: 't',
      numPartitions: 6,
      replicationFactor: 3,
      configEntries: [{ name: 'min.insync.replicas', value: '2' }],
    });
    expect(withMinInsyncReplicas({ topic: 't', replicationFactor: 5 }).configEntries).toEqual([
      { name: 'min.insync.replicas', value: '3' },
    ]);
  });

  it("keeps the topic's other settings beside it", () => {
    const compacted = {
      topic: 't',
      replicationFactor: 3,
      configEntries: [{ name: 'cleanup.policy', value: 'compact' }],
    };
    expect(withMinInsyncReplicas(compacted).configEntries).toEqual([
      { name: 'cleanup.policy', value: 'compact' },
      { name: 'min.insync.replicas', value: '2' },
    ]);
  });

  it("leaves the broker's default below three replicas, and a topic's own choice alone", () => {
    const one = { topic: 't', replicationFactor: 1 };
    expect(withMinInsyncReplicas(one)).toBe(one);
    const unsized = { topic: 't' };
    expect(withMinInsyncReplicas(unsized)).toBe(unsized);
    const own = { topic: 't', replicationFactor: 3, configEntries: [{ name: 'min.insync.replicas', value: '3' }] };
    expect(withMinInsyncReplicas(own)).toBe(own);
  });
});
