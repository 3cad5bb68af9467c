import { describe, expect, it } from 'vitest';
import { latencyLine, pairedSummary, summarise } from './stats.js';

describe('summarise', () => {
  it('takes nearest-rank percentiles and throughput over the whole span', () => {
    const latencies = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(summarise(latencies, 0, 2000)).toEqual({ count: 100, p50Ms: 50, p95Ms: 95, p99Ms: 99, throughputPerS: 50 });
  });
});

describe('pairedSummary', () => {
  it('pairs ids seen at both ends and spans the first start to the last end', () => {
    const from = new Map([
      ['a', 1000],
      ['b', 1100],
      ['c', 1200],
    ]);
    const to = new Map([
      ['a', 1010],
      ['b', 1130],
      ['x', 9999],
    ]);
    // a: 10 ms, b: 30 ms; c never arrived and x was never sent; 2 over 130 ms.
    expect(pairedSummary(from, to)).toEqual({
      count: 2,
      p50Ms: 10,
      p95Ms: 30,
      p99Ms: 30,
      throughputPerS: 2000 / 130,
    });
  });

  it('is empty, not an error, when nothing arrived', () => {
    expect(pairedSummary(new Map([['a', 1]]), new Map())).toMatchObject({ count: 0, p50Ms: Number.NaN });
  });
});

describe('latencyLine', () => {
  it('aligns the name, throughput and percentiles in columns', () => {
    expect(
      latencyLine('full path (Baton)', { count: 1, p50Ms: 12, p95Ms: 40, p99Ms: 101, throughputPerS: 2345.6 }),
    ).toBe('full path (Baton)            2346/s  p50     12 ms  p95     40 ms  p99    101 ms');
  });
});
