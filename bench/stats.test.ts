import { describe, expect, it } from 'vitest';
import { latencyLine, summarise } from './stats.js';

describe('summarise', () => {
  it('takes nearest-rank percentiles and throughput over the whole span', () => {
    const latencies = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(summarise(latencies, 0, 2000)).toEqual({ count: 100, p50Ms: 50, p95Ms: 95, p99Ms: 99, throughputPerS: 50 });
  });
});

describe('latencyLine', () => {
  it('aligns the name, throughput and percentiles in columns', () => {
    expect(
      latencyLine('full path (Baton)', { count: 1, p50Ms: 12, p95Ms: 40, p99Ms: 101, throughputPerS: 2345.6 }),
    ).toBe('full path (Baton)            2346/s  p50     12 ms  p95     40 ms  p99    101 ms');
  });
});
