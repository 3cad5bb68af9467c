import { describe, expect, it } from 'vitest';
import { isoDurationMs } from './iso-duration.js';

describe('isoDurationMs', () => {
  it('reads weeks, days, hours, minutes and fractional seconds', () => {
    expect(isoDurationMs('PT2H')).toBe(7_200_000);
    expect(isoDurationMs('P1DT30M')).toBe(86_400_000 + 1_800_000);
    expect(isoDurationMs('P2W')).toBe(14 * 86_400_000);
    expect(isoDurationMs('PT0.5S')).toBe(500);
    expect(isoDurationMs('PT1H2M3S')).toBe(3_723_000);
  });

  it('refuses what is not such a duration', () => {
    for (const text of ['', 'P', 'PT', '2H', 'PT2h', 'P1Y', 'P1M', 'PT-1S', 'P1DT']) {
      expect(isoDurationMs(text), text).toBeUndefined();
    }
  });
});
