import type { AgentStatus } from '@baton/gateway-api';
import { api } from '../api.js';
import { badge, busy, h, table, tbody, timeElement } from '../dom.js';
import { Latest, run } from '../feedback.js';
import { deadLettersHash } from '../router.js';
import type { View } from '../types.js';
import { lagText, liveBadge, upBadge } from './agent-state.js';

/**
 * Each agent's card from the registry (skills, domain, version), whether it is consumed and live,
 * its lag, the instances in its consumer group and the registrations with their heartbeats.
 */
export function agentsView(): View<{ view: 'agents' }> {
  const cards = h('div', { className: 'agent-cards', attrs: { 'data-testid': 'agent-cards' } });
  const root = h(
    'section',
    { className: 'view', attrs: { 'data-testid': 'view-agents', 'aria-labelledby': 'agents-heading' } },
    h(
      'div',
      { className: 'card-head' },
      h('h2', { text: 'Agents', attrs: { id: 'agents-heading' } }),
      h('button', {
        text: 'Refresh',
        className: 'secondary',
        attrs: { type: 'button', 'data-testid': 'agents-refresh' },
        on: { click: () => void run(load) },
      }),
    ),
    cards,
  );
  const latest = new Latest();

  async function load(): Promise<void> {
    const isLatest = latest.next();
    busy(root, true);
    try {
      const answer = await api<{ agents: AgentStatus[] }>('GET', 'v1/agents');
      if (isLatest()) cards.replaceChildren(...answer.agents.map(agentCard));
    } finally {
      if (isLatest()) busy(root, false);
    }
  }

  return {
    root,
    enter() {
      document.title = 'Agents · Baton';
      void run(load);
    },
    leave() {
      latest.cancel();
    },
  };
}

function agentCard(agent: AgentStatus): HTMLElement {
  const card = agent.card;
  const instances = table('agent-instances', 'Instances in the consumer group', [
    'Instance',
    'Host',
    'Live',
    'Last heartbeat',
  ]);
  tbody(instances).replaceChildren(
    ...agent.instances.map((instance) =>
      h(
        'tr',
        { attrs: { 'data-testid': 'instance-row', 'data-instance': instance.instance_id } },
        h('td', { className: 'mono', text: instance.instance_id }),
        h('td', { className: 'mono', text: instance.host }),
        h(
          'td',
          {},
          instance.live === undefined
            ? '—'
            : badge(instance.live ? 'live' : 'not live', instance.live ? 'good' : 'bad'),
        ),
        h('td', {}, timeElement(instance.last_heartbeat_at)),
      ),
    ),
  );
  const registrations = table('agent-registrations', 'Registrations the registry holds', [
    'Instance',
    'Version',
    'Live',
    'Started',
    'Last heartbeat',
  ]);
  tbody(registrations).replaceChildren(
    ...agent.registrations.map((registration) =>
      h(
        'tr',
        { attrs: { 'data-testid': 'registration-row' } },
        h('td', { className: 'mono', text: registration.instance_id }),
        h('td', { text: registration.version }),
        h('td', {}, badge(registration.live ? 'live' : 'not live', registration.live ? 'good' : 'bad')),
        h('td', {}, timeElement(registration.started_at)),
        h('td', {}, timeElement(registration.last_heartbeat_at)),
      ),
    ),
  );
  return h(
    'article',
    {
      className: agent.up ? 'card agent' : 'card agent alarm',
      attrs: { 'data-testid': 'agent-card', 'data-agent': agent.agent_id },
    },
    h(
      'div',
      { className: 'card-head' },
      h('h3', {}, h('code', { text: agent.agent_id }), card ? ` ${card.name}` : ''),
      h('span', {}, upBadge(agent), ' ', liveBadge(agent)),
    ),
    h(
      'p',
      { className: 'small' },
      card
        ? [`Domain ${card.domain} · version ${card.version}`, card.description ? ` · ${card.description}` : '']
        : h('span', { className: 'subtle', text: 'No card in the registry.' }),
    ),
    h(
      'p',
      { className: 'small' },
      'Lag ',
      h('strong', { text: lagText(agent.lag), attrs: { 'data-field': 'lag' } }),
      ' · control lag ',
      h('strong', { text: lagText(agent.control_lag), attrs: { 'data-field': 'control-lag' } }),
      ` · state ${agent.state} · group `,
      h('code', { text: agent.group_id }),
      ' · ',
      h('a', {
        text: 'its dead letters',
        attrs: { href: deadLettersHash(new URLSearchParams({ agent: agent.agent_id })) },
      }),
    ),
    h(
      'p',
      { className: 'small', attrs: { 'data-testid': 'agent-recent-outcomes' } },
      'Last 15 minutes: ',
      recentOutcomesText(agent.recent_outcomes),
    ),
    card && card.skills.length > 0
      ? h(
          'ul',
          { className: 'skills', attrs: { 'data-testid': 'agent-skills' } },
          card.skills.map((skill) => h('li', { attrs: { title: skill.description ?? '' } }, badge(skill.name, 'info'))),
        )
      : null,
    h('div', { className: 'table-wrap' }, instances),
    agent.registrations.length > 0 ? h('div', { className: 'table-wrap' }, registrations) : null,
  );
}

/** `COMPLETED 12 · ROUTED 3`, most first; `none` for a quiet agent. */
function recentOutcomesText(outcomes: Record<string, number>): string {
  const counted = Object.entries(outcomes).sort(([a, m], [b, n]) => n - m || a.localeCompare(b));
  return counted.length === 0 ? 'none' : counted.map(([outcome, n]) => `${outcome} ${n}`).join(' · ');
}
