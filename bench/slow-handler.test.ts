import { describe, expect, it } from 'vitest';
import { idealPerS, roundBoundPerS } from './slow-handler.js';

describe('idealPerS', () => {
  it('is min(concurrency, tasks) handlers per handler time', () => {
    expect(idealPerS(64, 200, 2_000)).toBe(32);
    expect(idealPerS(64, 10, 2_000)).toBe(5);
    expect(idealPerS(1, 200, 2_000)).toBe(0.5);
  });
});

describe('roundBoundPerS', () => {
  it('counts whole rounds of handlers, the last partly empty', () => {
    // One handoff each: 4 rounds of 2 s for 200.
    expect(roundBoundPerS(64, 200, 200, 2_000)).toBe(25);
    // Two each: 7 rounds for 400.
    expect(roundBoundPerS(64, 200, 400, 2_000)).toBeCloseTo(400 / 14);
  });

  it('never counts fewer rounds than a task has handoffs in a row', () => {
    // 10 tasks of 5 handoffs, 64 slots: 1 round of slots would do, but each task needs 5 in order.
    expect(roundBoundPerS(64, 10, 50, 2_000)).toBe(5);
  });
});
