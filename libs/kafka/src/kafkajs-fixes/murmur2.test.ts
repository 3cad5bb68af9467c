import { describe, expect, it } from 'vitest';
// Before kafkajs, as in the lib: the fixes go into place when create-kafka.ts loads.
import { createKafka } from '../create-kafka.js';
import { Partitioners } from 'kafkajs';
import { kafkajsMurmur2, murmur2, patchMurmur2 } from './murmur2.js';

createKafka({ brokers: ['localhost:9092'], clientId: 'test' });

describe("kafkajs's murmur2, fixed", () => {
  it('hashes as the Java client does (the cases of Kafka’s UtilsTest)', () => {
    const cases: [string, number][] = [
      ['21', -973932308],
      ['foobar', -790332482],
      ['a-little-bit-long-string', -985981536],
      ['a-little-bit-longer-string', -1486304829],
      ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
      ['abc', 479470107],
    ];
    expect(cases.map(([key]) => [key, murmur2(key)])).toEqual(cases);
  });

  it('hashes as kafkajs 2.2.4 does: every tail length, bytes over 0x7f, UTF-8 text', () => {
    // Each value as kafkajs's own murmur2 hashed it.
    const cases: [string | Buffer, number][] = [
      ['', 275646681],
      ['a', -1563381124],
      ['ab', 316155434],
      ['task-abc-456', 413634195],
      ['fuzz-raw-20261124-1220', 363262446],
      ['ü', 1419834458],
      ['€€', -1470944582],
      ['naïve café ☕', -47369366],
      ['😀😀😀', 74421924],
      [Buffer.from([0xff, 0xfe, 0x80, 0x7f, 0x00, 0x81, 0xc3]), 1659272644],
    ];
    expect(cases.map(([key]) => [key, murmur2(key)])).toEqual(cases);
  });

  it("is what kafkajs's default partitioner hashes with, so a 1 MiB key is partitioned at once", () => {
    expect(patchMurmur2().status).toBe('applied');
    expect(kafkajsMurmur2()).toBe(murmur2);
    const partitioner = Partitioners.DefaultPartitioner();
    const partitionMetadata = [0, 1, 2, 3, 4, 5].map((partitionId) => ({
      partitionId,
      partitionErrorCode: 0,
      leader: 1,
      replicas: [1],
      isr: [1],
    }));
    const partitionOf = (key: string) => partitioner({ topic: 't', partitionMetadata, message: { key, value: null } });
    // As kafkajs 2.2.4 partitioned them.
    expect(['task-abc-456', 'fuzz-1', 'fuzz-2', 'fuzz-3'].map(partitionOf)).toEqual([3, 3, 2, 1]);
    // kafkajs's own took minutes over a key this long, the event loop blocked throughout.
    const huge = 'x'.repeat(1 << 20);
    expect(partitionOf(huge)).toBe((murmur2(huge) & 0x7fffffff) % 6);
  });
});
