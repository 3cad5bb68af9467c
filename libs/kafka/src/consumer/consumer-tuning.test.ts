import { describe, expect, it } from 'vitest';
import { DEFAULT_CONSUMER_TUNING, consumerTuning } from './consumer-tuning.js';

describe('consumerTuning', () => {
  it('fills what is not given with the defaults', () => {
    expect(consumerTuning({ commitIntervalMs: 10, maxConcurrency: undefined })).toEqual({
      ...DEFAULT_CONSUMER_TUNING,
      commitIntervalMs: 10,
    });
  });

  it('refuses bounds that are not positive integers, and a buffer smaller than the concurrency', () => {
    expect(() => consumerTuning({ commitMaxMessages: 0 })).toThrow('commitMaxMessages must be a positive integer');
    expect(() => consumerTuning({ maxConcurrency: 10, maxBuffered: 5 })).toThrow(
      'maxBuffered (5) must be at least maxConcurrency (10)',
    );
    expect(() => consumerTuning({ sessionTimeoutMs: 6_000, fetchWaitMs: 2_001 })).toThrow(
      'fetchWaitMs (2001) must be at most a third of sessionTimeoutMs (6000)',
    );
  });
});
