import type { AgentCard, AgentRegistration } from './agent-card.js';
import { LIVENESS_INTERVALS } from './registry-config.js';

/** How old an instance's last heartbeat may be for it to count as live: the configured window, else 3 heartbeat intervals. */
export function livenessWindowMs(card: Pick<AgentCard, 'heartbeat_interval_ms'>, configuredMs?: number): number {
  return configuredMs ?? LIVENESS_INTERVALS * card.heartbeat_interval_ms;
}

/**
 * Whether an instance is live at `now`: its last heartbeat is at most the liveness window old. A
 * heartbeat stamped after `now` (the instance's clock runs ahead) counts as fresh.
 */
export function isLive(registration: AgentRegistration, now: Date, configuredWindowMs?: number): boolean {
  const age = now.getTime() - Date.parse(registration.last_heartbeat_at);
  return age <= livenessWindowMs(registration.card, configuredWindowMs);
}
