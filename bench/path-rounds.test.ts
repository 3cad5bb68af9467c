import { describe, expect, it } from 'vitest';
import { cpuUsPerHandoff, medianRound, pathRatios, type PathRun } from './path-rounds.js';
import { basePass, latencySummary, slowerPass } from './path-run.test-helper.js';

describe('cpuUsPerHandoff', () => {
  it('turns the ticks of the pass into µs per handoff, per process', () => {
    const before = new Map([
      ['router', 1_000],
      ['bench_agent', 2_000],
    ]);
    const after = new Map([
      ['router', 1_250],
      ['bench_agent', 2_600],
    ]);
    // 2.5 s and 6 s of CPU over 10,000 handoffs.
    expect(cpuUsPerHandoff(before, after, 100, 10_000)).toEqual({ router: 250, bench_agent: 600 });
  });

  it('leaves out a process read at only one end', () => {
    expect(cpuUsPerHandoff(new Map([['gone', 5]]), new Map([['new', 7]]), 100, 10)).toEqual({});
  });
});

const off: PathRun = basePass;
const required: PathRun = slowerPass;

describe('pathRatios', () => {
  it('divides the other path by the base: throughput, and CPU per handoff of each process', () => {
    expect(pathRatios(off, required)).toEqual({
      throughput: 0.8,
      'cpu.router': 1.4,
      'cpu.bench_agent': 1.25,
    });
  });

  it('has no ratio where a figure is missing or the baseline is zero', () => {
    const idle = { fullPath: latencySummary(0), cpuUsPerHandoff: { router: 0, bench_agent: 600 } };
    expect(pathRatios(idle, { ...required, cpuUsPerHandoff: { router: 350 } })).toEqual({
      throughput: null,
      'cpu.router': null,
      'cpu.bench_agent': null,
    });
  });
});

const round = (first: 'off' | 'required', requiredPerS: number) => {
  const slower = { ...required, fullPath: { ...required.fullPath, throughputPerS: requiredPerS } };
  return { first, off, required: slower, ratios: pathRatios(off, slower) };
};

describe('medianRound', () => {
  it('takes the round whose throughput ratio is the median', () => {
    const rounds = [
      round('off', 700),
      round('required', 900),
      round('off', 800),
      round('required', 500),
      round('off', 850),
    ];
    expect(medianRound(rounds)).toBe(rounds[2]);
    expect(medianRound([round('off', 600)]).ratios.throughput).toBe(0.6);
  });
});
