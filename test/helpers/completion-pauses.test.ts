import { describe, expect, it } from 'vitest';
import { lastCompletionMs, longestPauseMs, type CompletionTimeline } from './completion-pauses.js';

const timeline: CompletionTimeline = [
  [100, 10],
  [200, 20],
  [1_500, 30],
  [1_600, 40],
  [5_000, 50],
];

describe('longestPauseMs', () => {
  it('is the longest stretch without a completion after the fault, the wait for the first one included', () => {
    expect(longestPauseMs(timeline, 150, 1_600, 50)).toBe(1_300);
    expect(longestPauseMs(timeline, 0, 250, 50)).toBe(100);
  });

  it('counts a stretch still open at the end of the window while work remains', () => {
    expect(longestPauseMs(timeline, 1_550, 4_000, 50)).toBe(2_400);
  });

  it('does not count the time after the last handoff was completed', () => {
    expect(longestPauseMs(timeline, 1_550, 9_000, 50)).toBe(3_400);
    expect(longestPauseMs(timeline, 5_000, 9_000, 50)).toBe(0);
  });
});

it('lastCompletionMs is when the count last rose', () => {
  expect(lastCompletionMs(timeline)).toBe(5_000);
  expect(lastCompletionMs([])).toBeUndefined();
});
