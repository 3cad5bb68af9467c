import { describe, expect, it } from 'vitest';
import { firstOfRound, pairedRatios } from './exactly-once-pairs.js';

const round = (first: 'baton' | 'relay', routerHop: number, fullPath: number, oneHop: number, twoHops: number) => ({
  first,
  baton: { routerHop, fullPath },
  relay: { oneHop, twoHops },
});

describe('firstOfRound', () => {
  it('alternates Baton first and the relay first', () => {
    expect([0, 1, 2, 3, 4].map(firstOfRound)).toEqual(['baton', 'relay', 'baton', 'relay', 'baton']);
  });
});

describe('pairedRatios', () => {
  it('divides within each round and takes the median round of each ratio', () => {
    const { rounds, median } = pairedRatios([
      round('baton', 500, 400, 1000, 1000),
      round('relay', 900, 300, 1000, 1000),
      round('baton', 100, 450, 1000, 900),
    ]);
    expect(rounds.map((r) => r.ratios)).toEqual([
      { routerHop: 0.5, fullPath: 0.4 },
      { routerHop: 0.9, fullPath: 0.3 },
      { routerHop: 0.1, fullPath: 0.5 },
    ]);
    expect(median).toEqual({ routerHop: 0.5, fullPath: 0.4 });
  });

  it('averages the two middle rounds of an even count, and gives NaN for none', () => {
    const { median } = pairedRatios([round('baton', 2, 2, 10, 10), round('relay', 4, 6, 10, 10)]);
    expect(median.routerHop).toBeCloseTo(0.3, 12);
    expect(median.fullPath).toBeCloseTo(0.4, 12);
    expect(pairedRatios([]).median).toEqual({ routerHop: Number.NaN, fullPath: Number.NaN });
  });
});
