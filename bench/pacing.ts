import { setTimeout as delay } from 'node:timers/promises';

/** When each of `ratePerS × seconds` sends is due, in ms from the start: evenly spaced, never bunched. */
export function paceSchedule(ratePerS: number, seconds: number): number[] {
  if (!(ratePerS > 0) || !(seconds > 0))
    throw new RangeError(`rate and duration must be positive, not ${ratePerS}/s for ${seconds} s`);
  const count = Math.round(ratePerS * seconds);
  return Array.from({ length: count }, (_, i) => (i * 1000) / ratePerS);
}

export interface PacingClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const REAL_CLOCK: PacingClock = { now: () => Date.now(), sleep: (ms) => delay(ms) };

export interface PacingReport {
  /** How late the latest send started, against its due time. */
  maxLatenessMs: number;
  /** Sends that started more than 5 ms late. */
  lateSends: number;
}

/**
 * Calls `send(i)` at each due time of `offsetsMs` after the start, by the clock: `send` is not
 * awaited, so a slow send delays none after it, and a send that falls behind is made at once
 * rather than skipped (the schedule, not the system under test, sets the load).
 */
export async function runPaced(
  offsetsMs: readonly number[],
  send: (index: number) => void,
  clock: PacingClock = REAL_CLOCK,
): Promise<PacingReport> {
  const start = clock.now();
  let maxLatenessMs = 0;
  let lateSends = 0;
  for (const [index, offset] of offsetsMs.entries()) {
    const due = start + offset;
    const wait = due - clock.now();
    if (wait > 0) await clock.sleep(wait);
    const lateness = Math.max(0, clock.now() - due);
    maxLatenessMs = Math.max(maxLatenessMs, lateness);
    if (lateness > 5) lateSends += 1;
    send(index);
  }
  return { maxLatenessMs, lateSends };
}
