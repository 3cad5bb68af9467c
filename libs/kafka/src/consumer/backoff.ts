export interface BackoffPolicy {
  /** Delay before the first retry. @default 200 ms */
  initialDelayMs: number;
  /** Cap on any one delay. @default 30 s */
  maxDelayMs: number;
  /** Growth per attempt. @default 2 */
  multiplier: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialDelayMs: 200, maxDelayMs: 30_000, multiplier: 2 };

/**
 * Exponential backoff with full jitter in its upper half: the delay before retry number `retry`
 * (1 for the first) lies in [d/2, d] where d = initial × multiplier^(retry-1), capped. Jitter keeps
 * many consumers that failed together from retrying together.
 */
export function backoffDelayMs(policy: BackoffPolicy, retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.multiplier ** Math.max(0, retry - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
