/**
 * Timing of one operation in this process, for the micro-benchmarks (signature-costs.ts): warmed
 * up until V8 has optimised it, then timed in rounds of many calls each, so the clock's resolution
 * and one round's hiccup (a GC, another process taking the core) do not make the figure.
 */

export interface MicroTimingOptions {
  /** Calls run untimed first, for at least this long. */
  warmupMs: number;
  /** How long one timed round should last; its number of calls is set from the warm-up's pace. */
  roundMs: number;
  rounds: number;
  /** Milliseconds, high resolution. @default performance.now */
  now?: () => number;
}

export interface MicroTiming {
  /** The median round's time per call: what the report shows. */
  medianUs: number;
  /** The fastest and slowest rounds, to tell a stable figure from a noisy one. */
  minUs: number;
  maxUs: number;
  /** Calls per round, and rounds. */
  iterations: number;
  rounds: number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Times `batch`, which makes `iterations` calls of the operation: its loop is the caller's, so a
 * synchronous operation is not timed with an await around every call.
 */
export async function timePerCall(
  batch: (iterations: number) => void | Promise<void>,
  options: MicroTimingOptions,
): Promise<MicroTiming> {
  const now = options.now ?? (() => performance.now());
  const timed = async (iterations: number): Promise<number> => {
    const startedAt = now();
    await batch(iterations);
    return now() - startedAt;
  };

  // Doubling batches until the warm-up time is spent; the last one, the largest, gives the pace.
  let iterations = 1;
  let lastMs = await timed(iterations);
  let warmedMs = lastMs;
  while (warmedMs < options.warmupMs) {
    if (lastMs < options.warmupMs / 10) iterations *= 2;
    lastMs = await timed(iterations);
    warmedMs += lastMs;
  }
  const perRound = roundIterations(lastMs / iterations, options.roundMs);

  const roundsUs: number[] = [];
  for (let round = 0; round < options.rounds; round += 1) {
    roundsUs.push(((await timed(perRound)) * 1000) / perRound);
  }
  return {
    medianUs: median(roundsUs),
    minUs: Math.min(...roundsUs),
    maxUs: Math.max(...roundsUs),
    iterations: perRound,
    rounds: options.rounds,
  };
}

/** Calls for a round of `roundMs` at `msPerCall`; at least one, and a call too fast to time counts as 1 µs. */
export function roundIterations(msPerCall: number, roundMs: number): number {
  return Math.max(1, Math.round(roundMs / Math.max(msPerCall, 0.001)));
}
