import { describe, expect, it } from 'vitest';
import { summarise } from './stats.js';

describe('summarise', () => {
  it('takes nearest-rank percentiles and throughput over the whole span', () => {
    const latencies = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(summarise(latencies, 0, 2000)).toEqual({ count: 100, p50Ms: 50, p95Ms: 95, p99Ms: 99, throughputPerS: 50 });
  });
});
