import { describe, expect, it } from 'vitest';
import { FailureTally } from './failure-tally.js';

describe('FailureTally', () => {
  it('counts failures by code over the window, and forgets them once it has passed', () => {
    let now = 1_000_000;
    const tally = new FailureTally(60_000, () => now);
    expect(tally.recent()).toBeUndefined();
    for (let i = 0; i < 67; i += 1) tally.note('MODEL_UNAVAILABLE');
    now += 20_000;
    tally.note('TOOL_FAILED');
    tally.note('MODEL_UNAVAILABLE');
    expect(tally.recent()).toEqual({ window_ms: 60_000, counts: { MODEL_UNAVAILABLE: 68, TOOL_FAILED: 1 } });
    // The first 67 are more than a minute old; the later two are not.
    now += 41_000;
    expect(tally.recent()).toEqual({ window_ms: 60_000, counts: { MODEL_UNAVAILABLE: 1, TOOL_FAILED: 1 } });
    now += 20_000;
    expect(tally.recent()).toBeUndefined();
  });
});
