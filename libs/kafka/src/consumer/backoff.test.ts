import { describe, expect, it } from 'vitest';
import { DEFAULT_BACKOFF, backoffDelayMs } from './backoff.js';

describe('backoffDelayMs', () => {
  it('doubles per retry between half and all of the ceiling', () => {
    expect(backoffDelayMs(DEFAULT_BACKOFF, 1, () => 0)).toBe(100);
    expect(backoffDelayMs(DEFAULT_BACKOFF, 1, () => 1)).toBe(200);
    expect(backoffDelayMs(DEFAULT_BACKOFF, 3, () => 1)).toBe(800);
    expect(backoffDelayMs(DEFAULT_BACKOFF, 3, () => 0.5)).toBe(600);
  });

  it('never exceeds the cap', () => {
    expect(backoffDelayMs(DEFAULT_BACKOFF, 40, () => 1)).toBe(30_000);
  });
});
