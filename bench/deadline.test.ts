import { describe, expect, it } from 'vitest';
import { BenchTimeoutError, waitForCount, withDeadline, type WaitClock } from './deadline.js';

/** Time moves only when slept on; `onSleep` lets a test make things arrive meanwhile. */
function fakeClock(onSleep: (now: number) => void = () => undefined): WaitClock {
  let now = 0;
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
      onSleep(now);
    },
  };
}

const quiet = () => undefined;

describe('waitForCount', () => {
  it('returns once the count reaches the total, reporting progress on the way', async () => {
    let count = 0;
    const lines: string[] = [];
    await waitForCount({
      label: 'arrivals',
      total: 10,
      count: () => count,
      progress: (line) => lines.push(line),
      stallMs: 5_000,
      deadlineMs: 60_000,
      clock: fakeClock(() => (count += 1)),
    });
    expect(count).toBe(10);
    expect(lines[0]).toBe('arrivals: 0/10');
    expect(lines.at(-1)).toBe('arrivals: 10/10 in 2.0 s');
  });

  it('fails with what arrived when nothing new comes for the stall limit', async () => {
    let count = 0;
    const waiting = waitForCount({
      label: 'full path',
      total: 10,
      count: () => count,
      progress: quiet,
      stallMs: 3_000,
      deadlineMs: 60_000,
      clock: fakeClock((now) => {
        if (now <= 1_000) count += 1;
      }),
    });
    await expect(waiting).rejects.toThrow(BenchTimeoutError);
    await expect(waiting).rejects.toThrow(/^full path: 5\/10 after 4 s, nothing new for 3 s \(stall limit 3 s\)$/);
  });

  it('fails at the deadline even while the count still creeps up', async () => {
    let count = 0;
    const waiting = waitForCount({
      label: 'slow handler',
      total: 1_000_000,
      count: () => count,
      progress: quiet,
      stallMs: 5_000,
      deadlineMs: 10_000,
      clock: fakeClock(() => (count += 1)),
    });
    await expect(waiting).rejects.toThrow(/^slow handler: 50\/1000000 when its deadline of 10 s passed$/);
  });
});

describe('withDeadline', () => {
  it('passes the value on when the promise settles in time', async () => {
    await expect(withDeadline(Promise.resolve(7), 'router start', 1_000, quiet)).resolves.toBe(7);
  });

  it('fails naming the wait when the promise takes too long', async () => {
    await expect(withDeadline(new Promise(() => undefined), 'router start', 20, quiet)).rejects.toThrow(
      'router start: not done after 0 s',
    );
  });
});
