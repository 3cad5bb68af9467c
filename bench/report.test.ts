import { describe, expect, it } from 'vitest';
import { isNoisy, pairLines, targetLine } from './report.js';

describe('targetLine', () => {
  it('puts the status first, MISSED in capitals, then the figure and its bound', () => {
    const line = targetLine({
      id: 'lightLoad.agentHop.p99',
      label: 'light load, agent hop p99',
      value: 61.4,
      unit: 'ms',
      op: '<=',
      threshold: 50,
      status: 'missed',
    });
    expect(line).toMatch(/^ {2}MISSED {8}light load, agent hop p99 +61 ms {2}\(target <= 50 ms\)$/);
  });

  it('shows ratios as multiples, and a figure with no bound or no measurement as such', () => {
    const ratio = {
      id: 'r',
      label: 'ratio',
      value: 0.6434,
      unit: 'x',
      op: '>=',
      threshold: 0.5,
      status: 'met',
    } as const;
    expect(targetLine(ratio)).toMatch(/^ {2}met +ratio +0\.64x {2}\(target >= 0\.5\)$/);
    expect(
      targetLine({
        id: 'n',
        label: 'per second',
        value: 41.54,
        unit: '/s',
        op: '>=',
        threshold: 270,
        status: 'missed',
      }),
    ).toMatch(/^ {2}MISSED +per second +41\.5\/s {2}\(target >= 270 \/s\)$/);
    expect(
      targetLine({ id: 'm', label: 'rss', value: null, unit: 'MiB', op: '<=', threshold: 150, status: 'not measured' }),
    ).toMatch(/^ {2}not measured +rss +not measured {2}\(target <= 150 MiB\)$/);
  });
});

describe('isNoisy', () => {
  it('calls a machine noisy when other work kept more than half its cores busy before the bench', () => {
    expect(isNoisy(0.3, 2)).toBe(false);
    expect(isNoisy(1.5, 2)).toBe(true);
  });
});

describe('pairLines', () => {
  it('prints each round with who went first and its two ratios, then the medians', () => {
    expect(
      pairLines({
        rounds: [
          {
            first: 'relay',
            baton: { routerHop: 5_000.4, fullPath: 4_200 },
            relay: { oneHop: 10_000, twoHops: 8_400 },
            ratios: { routerHop: 0.50004, fullPath: 0.5 },
          },
        ],
        median: { routerHop: 0.50004, fullPath: 0.5 },
      }),
    ).toEqual([
      '  round 1 (relay first): router hop 5000/s / relay one hop 10000/s = 0.50x; full path 4200/s / relay two hops 8400/s = 0.50x',
      '  median: router hop 0.50x, full path 0.50x',
    ]);
  });
});
