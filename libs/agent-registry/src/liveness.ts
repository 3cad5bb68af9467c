import type { AgentCard, AgentRegistration } from './agent-card.js';
import { LIVENESS_INTERVALS } from './registry-config.js';

/** How old an instance's last heartbeat may be for it to count as live: the configured window, else 3 heartbeat intervals. */
export function livenessWindowMs(card: Pick<AgentCard, 'heartbeat_interval_ms'>, configuredMs?: number): number {
  return configuredMs ?? LIVENESS_INTERVALS * card.heartbeat_interval_ms;
}

/** Each registration's last heartbeat in epoch ms, parsed once: the router asks for every handoff. */
const heartbeatTimes = new WeakMap<AgentRegistration, number>();

function heartbeatTime(registration: AgentRegistration): number {
  let time = heartbeatTimes.get(registration);
  if (time === undefined) heartbeatTimes.set(registration, (time = Date.parse(registration.last_heartbeat_at)));
  return time;
}

/**
 * Whether an instance is live at `now`: its last heartbeat is at most the liveness window old. A
 * heartbeat stamped after `now` (the instance's clock runs ahead) counts as fresh.
 */
export function isLive(registration: AgentRegistration, now: Date, configuredWindowMs?: number): boolean {
  const age = now.getTime() - heartbeatTime(registration);
  return age <= livenessWindowMs(registration.card, configuredWindowMs);
}
