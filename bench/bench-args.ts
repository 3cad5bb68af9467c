/** `npm run bench [N] [M]`: the arguments, else the environment, else the defaults. */

/**
 * Handoffs per throughput row. Four rows carry them (Baton and three relays); the slowest, the
 * per-record relay, takes about a minute at this size on 2 shared cores, and the whole bench
 * about 6 to 8 minutes, while the fastest rows still run for several seconds each.
 */
export const DEFAULT_MESSAGES = 10_000;

export interface BenchArgs {
  /** N: handoffs per throughput row. */
  messages: number;
  /** M: negotiated handoffs; default N/10, at least 100. */
  negotiations: number;
  /** Seconds of the idle CPU window; undefined leaves it to measureIdleCpu, 0 skips the row. */
  idleSeconds: number | undefined;
}

function count(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${name} must be an integer of at least ${min}, not "${raw}"`);
  return value;
}

export function benchArgs(argv: readonly string[], env: Record<string, string | undefined>): BenchArgs {
  const messages = count('N (handoffs per row)', argv[0] ?? env.BENCH_MESSAGES, DEFAULT_MESSAGES, 1);
  return {
    messages,
    negotiations: count(
      'M (negotiated handoffs)',
      argv[1] ?? env.BENCH_NEGOTIATIONS,
      Math.max(100, Math.round(messages / 10)),
      1,
    ),
    idleSeconds:
      env.BENCH_IDLE_SECONDS === undefined ? undefined : count('BENCH_IDLE_SECONDS', env.BENCH_IDLE_SECONDS, 0, 0),
  };
}
