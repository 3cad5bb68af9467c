import { describe, expect, it } from 'vitest';
import { median, roundIterations, timePerCall } from './micro-timing.js';

describe('median', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});

describe('roundIterations', () => {
  it('fits the calls to the round, at least one, however fast the call looked', () => {
    expect(roundIterations(0.02, 100)).toBe(5000);
    expect(roundIterations(500, 100)).toBe(1);
    expect(roundIterations(0, 100)).toBe(100_000);
  });
});

describe('timePerCall', () => {
  /** A clock the batch moves: each call costs `usOf(round)` µs, round by round. */
  function fakeBatch(usOf: (batchIndex: number) => number) {
    let clockMs = 0;
    const sizes: number[] = [];
    return {
      sizes,
      now: () => clockMs,
      batch: (iterations: number) => {
        clockMs += (iterations * usOf(sizes.length)) / 1000;
        sizes.push(iterations);
      },
    };
  }

  it('warms up in doubling batches, then times rounds sized from the warm-up pace', async () => {
    const fake = fakeBatch(() => 10);
    const timing = await timePerCall(fake.batch, { warmupMs: 10, roundMs: 5, rounds: 3, now: fake.now });
    // Calls of 10 µs, doubled until a batch takes a tenth of the 10 ms warm-up (128 calls), then
    // batches of 128 until 10 ms are spent; rounds of 5 ms at that pace are 500 calls.
    expect(fake.sizes).toEqual([1, 2, 4, 8, 16, 32, 64, ...Array<number>(7).fill(128), 500, 500, 500]);
    expect(timing).toEqual({ medianUs: 10, minUs: 10, maxUs: 10, iterations: 500, rounds: 3 });
  });

  it('reports the median round, so one slow round does not move it', async () => {
    // Three warm-up calls of 20 µs (each already past a tenth of the warm-up), then rounds of 20, 10 and 50 µs a call.
    const costs = [20, 20, 20, 20, 10, 50];
    const fake = fakeBatch((index) => costs[index] ?? 10);
    const timing = await timePerCall(fake.batch, { warmupMs: 0.05, roundMs: 1, rounds: 3, now: fake.now });
    expect(fake.sizes).toEqual([1, 1, 1, 50, 50, 50]);
    expect(timing.medianUs).toBeCloseTo(20);
    expect([timing.minUs, timing.maxUs, timing.iterations]).toEqual([10, expect.closeTo(50), 50]);
  });

  it('awaits an asynchronous batch', async () => {
    let clockMs = 0;
    const timing = await timePerCall(
      async (iterations) => {
        await Promise.resolve();
        clockMs += iterations * 0.1;
      },
      { warmupMs: 1, roundMs: 1, rounds: 1, now: () => clockMs },
    );
    expect(timing.medianUs).toBeCloseTo(100);
  });
});
