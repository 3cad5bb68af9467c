import type { OverviewAnswer } from '@baton/gateway-api';
import { api } from '../api.js';
import { badge, busy, h, show, table, tbody, timeElement, toneOf } from '../dom.js';
import { Latest, run } from '../feedback.js';
import { deadLettersHash, tasksHash } from '../router.js';
import type { View } from '../types.js';
import { lagText, liveBadge, upBadge } from './agent-state.js';

/** The overview reloads itself while shown: it is the screen an operator leaves open. */
const REFRESH_MS = 10_000;

/**
 * The landing page: what needs attention (red), the agents with their lag, the dead letters by
 * error code and by topic (non-empty only, each a link to the list filtered to it), and the
 * handoff outcomes per minute.
 */
export function overviewView(): View<{ view: 'overview' }> {
  const attention = h('ul', { className: 'attention', attrs: { 'data-testid': 'attention' } });
  const allWell = h('p', {
    className: 'empty',
    text: 'Nothing needs attention.',
    attrs: { 'data-testid': 'attention-none' },
  });
  // Said only of an overview that was loaded: before the token is given, nothing is known.
  show(allWell, false);
  const generated = h('span', { className: 'subtle small', attrs: { 'data-testid': 'overview-time', role: 'status' } });
  const agents = table('overview-agents', 'Agents, with their lag', [
    'Agent',
    'Consumed',
    'Heartbeat',
    'Instances',
    'Lag',
  ]);
  const byCode = table(
    'dlq-by-code',
    'Dead letters by error code, most first',
    ['Error code', 'Count'],
    'data compact',
  );
  const byTopic = table(
    'dlq-by-topic',
    'DLQ topics holding dead letters, most first',
    ['Topic', 'Count'],
    'data compact',
  );
  const total = h('span', { className: 'count', attrs: { 'data-testid': 'dlq-total' } });
  const emptyTopics = h('p', { className: 'subtle small', attrs: { 'data-testid': 'dlq-empty-topics' } });
  const outcomes = h('div', { className: 'bars', attrs: { 'data-testid': 'outcomes' } });
  const outcomesHead = h('h3', { text: 'Handoff outcomes per minute' });
  const refresh = h('button', {
    text: 'Refresh',
    className: 'secondary',
    attrs: { type: 'button', 'data-testid': 'overview-refresh' },
  });

  const root = h(
    'section',
    { className: 'view overview', attrs: { 'data-testid': 'view-overview', 'aria-labelledby': 'overview-heading' } },
    h(
      'div',
      { className: 'card-head' },
      h('h2', { text: 'Overview', attrs: { id: 'overview-heading' } }),
      h('div', {}, generated, ' ', refresh),
    ),
    h(
      'section',
      { className: 'card', attrs: { 'aria-label': 'Needs attention' } },
      h('h3', { text: 'Needs attention' }),
      attention,
      allWell,
    ),
    h(
      'div',
      { className: 'grid-2' },
      h(
        'section',
        { className: 'card', attrs: { 'aria-label': 'Agents' } },
        h('h3', {}, h('a', { text: 'Agents', attrs: { href: '#/agents' } })),
        agents,
      ),
      h(
        'section',
        { className: 'card', attrs: { 'aria-label': 'Dead letters' } },
        h('h3', {}, h('a', { text: 'Dead letters', attrs: { href: '#/dead-letters' } }), ': ', total),
        h('div', { className: 'grid-2 tight' }, byCode, byTopic),
        emptyTopics,
      ),
    ),
    h('section', { className: 'card', attrs: { 'aria-label': 'Handoff outcomes' } }, outcomesHead, outcomes),
  );

  const latest = new Latest();
  let timer: number | undefined;

  async function load(): Promise<void> {
    const isLatest = latest.next();
    busy(root, true);
    try {
      const answer = await api<OverviewAnswer>('GET', 'v1/overview');
      if (isLatest()) render(answer);
    } finally {
      if (isLatest()) busy(root, false);
    }
  }

  function render(answer: OverviewAnswer): void {
    generated.replaceChildren('as of ', timeElement(answer.generated_at));
    attention.replaceChildren(
      ...answer.attention.map((item) =>
        h(
          'li',
          { attrs: { 'data-testid': 'attention-item', 'data-kind': item.kind, 'data-subject': item.subject } },
          badge(item.kind.replaceAll('_', ' '), 'bad'),
          ' ',
          item.kind === 'dead_letters'
            ? h('a', {
                className: 'mono',
                text: item.subject,
                attrs: { href: deadLettersHash(new URLSearchParams({ topic: item.subject })) },
              })
            : item.kind === 'stuck_tasks'
              ? h('a', {
                  className: 'mono',
                  text: item.subject,
                  attrs: { href: tasksHash(new URLSearchParams({ status: 'STUCK', agent: item.subject })) },
                })
              : h('strong', { className: 'mono', text: item.subject }),
          ' ',
          item.detail,
        ),
      ),
    );
    show(allWell, answer.attention.length === 0);

    tbody(agents).replaceChildren(
      ...answer.agents.map((agent) =>
        h(
          'tr',
          { className: agent.up ? '' : 'alarm', attrs: { 'data-testid': 'agent-row', 'data-agent': agent.agent_id } },
          h(
            'td',
            {},
            h('a', { className: 'mono', text: agent.agent_id, attrs: { href: `#/agents`, 'data-col': 'agent' } }),
          ),
          h('td', { attrs: { 'data-col': 'up' } }, upBadge(agent)),
          h('td', { attrs: { 'data-col': 'live' } }, liveBadge(agent)),
          h('td', { className: 'num', text: agent.instances.length, attrs: { 'data-col': 'instances' } }),
          h('td', { className: 'num', text: lagText(agent.lag), attrs: { 'data-col': 'lag' } }),
        ),
      ),
    );

    const stats = answer.dead_letters;
    total.textContent = String(stats.total);
    tbody(byCode).replaceChildren(
      ...stats.by_error_code
        .filter((entry) => entry.count > 0)
        .map((entry) =>
          countRow(
            'dlq-code-row',
            { 'data-code': entry.error_code },
            entry.error_code,
            entry.count,
            new URLSearchParams({ error_code: entry.error_code }),
          ),
        ),
    );
    tbody(byTopic).replaceChildren(
      ...stats.by_topic
        .filter((entry) => entry.count > 0)
        .map((entry) =>
          countRow(
            'dlq-topic-row',
            { 'data-topic': entry.topic },
            entry.topic,
            entry.count,
            new URLSearchParams({ topic: entry.topic }),
            `from ${entry.source_topic}`,
          ),
        ),
    );
    emptyTopics.textContent = `${stats.empty_topics} empty DLQ topic(s) not listed.`;

    outcomesHead.textContent = `Handoff outcomes per minute, last ${answer.outcomes.window_minutes} minutes`;
    renderOutcomes(answer.outcomes.per_minute);
  }

  function renderOutcomes(perMinute: OverviewAnswer['outcomes']['per_minute']): void {
    const totals = perMinute.map((minute) => Object.values(minute.outcomes).reduce((sum, n) => sum + n, 0));
    const most = Math.max(1, ...totals);
    outcomes.replaceChildren(
      ...perMinute.map((minute, index) =>
        h(
          'div',
          { className: 'bar-row', attrs: { 'data-testid': 'outcome-minute', 'data-minute': minute.minute } },
          h('span', { className: 'mono small', text: minute.minute.slice(11, 16) }),
          h(
            'span',
            { className: 'bar', attrs: { 'aria-hidden': 'true' } },
            ...Object.entries(minute.outcomes).map(([outcome, count]) =>
              // Widths are set through the CSSOM, which the CSP allows (inline style attributes it does not).
              withWidth(
                h('span', {
                  className: 'segment',
                  attrs: { 'data-tone': toneOf(outcome), title: `${outcome} ${count}` },
                }),
                (count / most) * 100,
              ),
            ),
          ),
          h(
            'span',
            { className: 'small' },
            totals[index] === 0
              ? h('span', { className: 'subtle', text: 'none' })
              : Object.entries(minute.outcomes).map(([outcome, count]) => [
                  badge(`${outcome} ${count}`, toneOf(outcome)),
                  ' ',
                ]),
          ),
        ),
      ),
    );
  }

  refresh.addEventListener('click', () => void run(load));

  return {
    root,
    enter() {
      void run(load);
      window.clearInterval(timer);
      // Background refreshes stay quiet; a failure shows when the user refreshes or comes back.
      timer = window.setInterval(() => void load().catch(() => undefined), REFRESH_MS);
    },
    leave() {
      window.clearInterval(timer);
      latest.cancel();
    },
  };
}

function countRow(
  testId: string,
  attrs: Record<string, string>,
  name: string,
  count: number,
  filters: URLSearchParams,
  note?: string,
): HTMLElement {
  return h(
    'tr',
    { attrs: { 'data-testid': testId, ...attrs } },
    h(
      'td',
      {},
      h('a', { className: 'mono', text: name, attrs: { href: deadLettersHash(filters), 'data-testid': 'dlq-link' } }),
      note ? h('div', { className: 'subtle small', text: note }) : null,
    ),
    h(
      'td',
      { className: 'num' },
      h('span', { className: 'count', text: count, attrs: { 'data-testid': 'dlq-count' } }),
    ),
  );
}

function withWidth(node: HTMLElement, percent: number): HTMLElement {
  node.style.width = `${percent.toFixed(2)}%`;
  return node;
}
