import { describe, expect, it } from 'vitest';
import { ageText } from './age.js';

describe('ageText', () => {
  const now = Date.parse('2026-12-07T12:00:00.000Z');
  it.each([
    ['2026-12-07T12:00:00.000Z', '0s'],
    ['2026-12-07T12:00:01.000Z', '0s'],
    ['2026-12-07T11:59:15.500Z', '44s'],
    ['2026-12-07T11:48:00.000Z', '12m'],
    ['2026-12-07T08:40:00.000Z', '3h 20m'],
    ['2026-12-05T08:00:00.000Z', '2d 4h'],
    ['not a time', '-'],
  ])('%s is %s ago', (iso, text) => {
    expect(ageText(iso, now)).toBe(text);
  });
});
