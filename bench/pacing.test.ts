import { describe, expect, it } from 'vitest';
import { paceSchedule, runPaced, type PacingClock } from './pacing.js';

describe('paceSchedule', () => {
  it('spaces rate × seconds sends evenly from 0', () => {
    const schedule = paceSchedule(20, 30);
    expect(schedule).toHaveLength(600);
    expect(schedule.slice(0, 3)).toEqual([0, 50, 100]);
    expect(schedule.at(-1)).toBe(29_950);
  });

  it('refuses a rate or a duration that is not positive', () => {
    expect(() => paceSchedule(0, 30)).toThrow(RangeError);
    expect(() => paceSchedule(20, -1)).toThrow(RangeError);
  });
});

/** A clock that moves only when slept on, or when a send takes time. */
function fakeClock(): PacingClock & { advance(ms: number): void } {
  let now = 1_000;
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

describe('runPaced', () => {
  it('sends at each due time, by the clock', async () => {
    const clock = fakeClock();
    const sentAt: number[] = [];
    const report = await runPaced([0, 50, 100], () => sentAt.push(clock.now()), clock);
    expect(sentAt).toEqual([1_000, 1_050, 1_100]);
    expect(report).toEqual({ maxLatenessMs: 0, lateSends: 0 });
  });

  it('sends a late one at once and keeps to the schedule after it, rather than bursting or drifting', async () => {
    const clock = fakeClock();
    const sentAt: number[] = [];
    const report = await runPaced(
      [0, 50, 100, 150],
      (index) => {
        sentAt.push(clock.now());
        // The event loop was held up for 80 ms around the first send.
        if (index === 0) clock.advance(80);
      },
      clock,
    );
    expect(sentAt).toEqual([1_000, 1_080, 1_100, 1_150]);
    expect(report).toEqual({ maxLatenessMs: 30, lateSends: 1 });
  });
});
