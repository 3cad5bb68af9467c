import { BatonError } from '@baton/errors';

/** How often an agent instance re-publishes its card, unless BATON_HEARTBEAT_INTERVAL_MS says otherwise. */
export const DEFAULT_HEARTBEAT_INTERVAL_MS = 5_000;

/** A reader's liveness window, when BATON_LIVENESS_WINDOW_MS is unset, is this many heartbeat intervals. */
export const LIVENESS_INTERVALS = 3;

export interface RegistryConfig {
  /** BATON_HEARTBEAT_INTERVAL_MS: how often an agent instance heartbeats. */
  heartbeatIntervalMs: number;
  /**
   * BATON_LIVENESS_WINDOW_MS: how old a last heartbeat may be for the instance to count as live.
   * Undefined: 3 times the heartbeat interval the instance's own card states.
   */
  livenessWindowMs: number | undefined;
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, min: number, max: number): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new BatonError('CONFIG_INVALID', `${name} must be an integer from ${min} to ${max}, not "${raw}"`, {
      path: `/env/${name}`,
    });
  }
  return value;
}

/** Reads the registry's settings; a bad value throws CONFIG_INVALID naming the variable. */
export function loadRegistryConfig(env: Env = process.env): Readonly<RegistryConfig> {
  return Object.freeze({
    heartbeatIntervalMs: integer(env, 'BATON_HEARTBEAT_INTERVAL_MS', 10, 3_600_000) ?? DEFAULT_HEARTBEAT_INTERVAL_MS,
    livenessWindowMs: integer(env, 'BATON_LIVENESS_WINDOW_MS', 10, 86_400_000),
  });
}
