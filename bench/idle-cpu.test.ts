import { describe, expect, it } from 'vitest';
import { formatIdleFigures, idleFigures } from './idle-cpu.js';

describe('idleFigures', () => {
  it('turns the ticks read at both ends of the window into CPU seconds and percent of a core', () => {
    const before = new Map([
      ['router', 1_000],
      ['broker', 50_000],
    ]);
    const after = new Map([
      ['router', 1_060],
      ['broker', 50_300],
    ]);
    expect(idleFigures(before, after, 100, 60)).toEqual({
      seconds: 60,
      cpuSeconds: { router: 0.6, broker: 3 },
      cpuPercent: { router: 1, broker: 5 },
    });
  });

  it('leaves out a process read at only one end', () => {
    const figures = idleFigures(new Map([['gone', 5]]), new Map([['new', 7]]), 100, 60.004);
    expect(figures).toEqual({ seconds: 60, cpuSeconds: {}, cpuPercent: {} });
  });
});

describe('formatIdleFigures', () => {
  it('lists the highest first and totals the services without the broker', () => {
    const text = formatIdleFigures({
      seconds: 60,
      cpuSeconds: { router: 0.6, gateway: 1.2, broker: 3 },
      cpuPercent: { router: 1, gateway: 2, broker: 5 },
    });
    expect(text.split('\n').map((line) => line.trim().split(/\s+/)[0])).toEqual([
      'idle',
      'broker',
      'gateway',
      'router',
      'all',
    ]);
    expect(text).toContain('all services                         3.00 %  1.80 s');
  });
});
