import { BatonError } from '@baton/errors';

export interface RefundPolicy {
  /** Refunds up to this many US dollars are executed without a human's approval. */
  autoLimitUsd: number;
}

/** Refunds up to this go through without asking anyone; above it Baton asks a human. */
export const DEFAULT_AUTO_LIMIT_USD = 100;

/** Reads REFUND_AUTO_LIMIT (US dollars) once at start; a bad value stops the agent with CONFIG_INVALID. */
export function loadRefundPolicy(env: Record<string, string | undefined> = process.env): Readonly<RefundPolicy> {
  const raw = env.REFUND_AUTO_LIMIT?.trim();
  if (raw === undefined || raw === '') return Object.freeze({ autoLimitUsd: DEFAULT_AUTO_LIMIT_USD });
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    throw new BatonError(
      'CONFIG_INVALID',
      `REFUND_AUTO_LIMIT must be a non-negative number of US dollars, not "${raw}"`,
      {
        path: '/env/REFUND_AUTO_LIMIT',
      },
    );
  }
  return Object.freeze({ autoLimitUsd: value });
}
