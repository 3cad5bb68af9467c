import type { AgentStatus } from '@baton/gateway-api';
import { badge } from '../dom.js';

/** Up (consumed by an instance) and live (heartbeating), as badges: red when not. */
export function upBadge(agent: AgentStatus): HTMLElement {
  return badge(agent.up ? 'up' : 'down', agent.up ? 'good' : 'bad');
}

export function liveBadge(agent: AgentStatus): HTMLElement {
  if (agent.live === null) return badge('no registration', 'info');
  return badge(agent.live ? 'live' : 'not live', agent.live ? 'good' : 'bad');
}

export function lagText(lag: number | null): string {
  return lag === null ? '—' : String(lag);
}
