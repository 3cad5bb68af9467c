/** `npm run bench [N] [M] [--brokers B]`: the arguments, else the environment, else the defaults. */
import { brokerCount, withoutBrokerOption } from '../scripts/lib/start-options.js';

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
  /**
   * `--brokers B` (or BENCH_BROKERS): with more than 1, the full path is also measured on a cluster
   * of B brokers beside the bench's one (cluster-path.ts). @default 1
   */
  brokers: number;
}

function count(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${name} must be an integer of at least ${min}, not "${raw}"`);
  return value;
}

export function benchArgs(given: readonly string[], env: Record<string, string | undefined>): BenchArgs {
  const argv = withoutBrokerOption(given);
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
    brokers: brokerCount(given, env, 'BENCH_BROKERS'),
  };
}
