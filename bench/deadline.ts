import { setTimeout as delay } from 'node:timers/promises';

/** How the bench reports on a wait that ended in failure: the label, what arrived, and why it gave up. */
export class BenchTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BenchTimeoutError';
  }
}

export interface WaitClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const REAL_CLOCK: WaitClock = { now: () => Date.now(), sleep: (ms) => delay(ms) };

export interface CountWait {
  /** Names the wait in progress lines and in the error, e.g. `Baton full path (COMPLETED outcomes)`. */
  label: string;
  total: number;
  /** How many have arrived so far; read every `pollMs`. */
  count(): number;
  progress(text: string): void;
  /** Fails when the count has not moved for this long: something is stuck. */
  stallMs: number;
  /** Fails when the whole wait takes longer than this, even while the count still moves. */
  deadlineMs: number;
  /** @default 200 */
  pollMs?: number;
  /** @default 2,000 */
  progressEveryMs?: number;
  clock?: WaitClock;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}

/**
 * Waits until `count()` reaches `total`, with a progress line every `progressEveryMs`, and throws
 * BenchTimeoutError when the count stalls for `stallMs` or the wait passes `deadlineMs`: a bench
 * that cannot finish says so and which wait it was, rather than hanging.
 */
export async function waitForCount(wait: CountWait): Promise<void> {
  const clock = wait.clock ?? REAL_CLOCK;
  const pollMs = wait.pollMs ?? 200;
  const progressEveryMs = wait.progressEveryMs ?? 2_000;
  const began = clock.now();
  let lastCount = wait.count();
  let movedAt = began;
  let reportedAt = began;
  wait.progress(`${wait.label}: ${lastCount}/${wait.total}`);
  while (lastCount < wait.total) {
    await clock.sleep(pollMs);
    const now = clock.now();
    const count = wait.count();
    if (count !== lastCount) movedAt = now;
    lastCount = count;
    if (count >= wait.total) break;
    if (now - movedAt >= wait.stallMs) {
      throw new BenchTimeoutError(
        `${wait.label}: ${count}/${wait.total} after ${seconds(now - began)}, nothing new for ${seconds(now - movedAt)}` +
          ` (stall limit ${seconds(wait.stallMs)})`,
      );
    }
    if (now - began >= wait.deadlineMs) {
      throw new BenchTimeoutError(
        `${wait.label}: ${count}/${wait.total} when its deadline of ${seconds(wait.deadlineMs)} passed`,
      );
    }
    if (now - reportedAt >= progressEveryMs) {
      wait.progress(`${wait.label}: ${count}/${wait.total}`);
      reportedAt = now;
    }
  }
  wait.progress(`${wait.label}: ${lastCount}/${wait.total} in ${((clock.now() - began) / 1000).toFixed(1)} s`);
}

/**
 * Awaits `promise`, saying every `progressEveryMs` that it still waits, and throws BenchTimeoutError
 * after `deadlineMs`. The promise itself is not cancelled: the caller stops what it started.
 */
export async function withDeadline<T>(
  promise: Promise<T>,
  label: string,
  deadlineMs: number,
  progress: (text: string) => void,
  progressEveryMs = 2_000,
): Promise<T> {
  const began = Date.now();
  const ticker = setInterval(
    () => progress(`${label}: still waiting (${seconds(Date.now() - began)})`),
    progressEveryMs,
  );
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new BenchTimeoutError(`${label}: not done after ${seconds(deadlineMs)}`)),
      deadlineMs,
    );
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearInterval(ticker);
    clearTimeout(timer);
  }
}
