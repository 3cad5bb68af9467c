import { BatonError } from '@baton/errors';
import { loadServiceConfig, type ServiceConfig } from '@baton/runtime';

export interface TrackerConfig extends ServiceConfig {
  /** How long the start may take to read the events topic to its end before the process gives up. */
  catchUpTimeoutMs: number;
}

type Env = Record<string, string | undefined>;

export function loadTrackerConfig(env: Env = process.env): Readonly<TrackerConfig> {
  const raw = env.BATON_TRACKER_CATCH_UP_TIMEOUT_MS?.trim();
  const catchUpTimeoutMs = raw === undefined || raw === '' ? 600_000 : Number(raw);
  if (!Number.isInteger(catchUpTimeoutMs) || catchUpTimeoutMs < 1) {
    throw new BatonError(
      'CONFIG_INVALID',
      `BATON_TRACKER_CATCH_UP_TIMEOUT_MS must be a positive integer, not "${raw}"`,
      {
        path: '/env/BATON_TRACKER_CATCH_UP_TIMEOUT_MS',
      },
    );
  }
  return Object.freeze({ ...loadServiceConfig('tracker', env), catchUpTimeoutMs });
}
