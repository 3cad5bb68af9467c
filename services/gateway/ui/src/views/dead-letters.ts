import type { DeadLetterSummary } from '@baton/gateway-api';
import { api, segment } from '../api.js';
import { badge, busy, h, show, table, taskLink, tbody, timeElement } from '../dom.js';
import { Latest, run } from '../feedback.js';
import { deadLettersHash, type Route } from '../router.js';
import { pager } from '../pager.js';
import type { View } from '../types.js';
import { bulkReplay } from './bulk-replay.js';
import { deadLetterFilterForm } from './dead-letter-filters.js';
import { deadLetterRecord } from './dead-letter-record.js';

type DeadLettersRoute = Extract<Route, { view: 'dead-letters' }>;

/**
 * Every DLQ topic's dead letters in one list, newest first (GET /v1/dead-letters), or one topic's
 * (GET /v1/dlq/{topic}/messages) when filtered to it; paged by the API's cursor; a row opens the
 * record below the list. The filters live in the hash, so the overview's links land on them.
 */
export function deadLettersView(): View<DeadLettersRoute> {
  const filters = deadLetterFilterForm();
  const list = table(
    'messages-table',
    'Dead letters, newest first; choose a row to see it',
    ['Dead-lettered', 'Topic', 'Id', 'Task', 'Handoff type', 'Error', 'Attempts', 'Replays'],
    'data messages',
  );
  const empty = h('p', {
    className: 'empty',
    text: 'No dead letter matches.',
    attrs: { 'data-testid': 'messages-empty', hidden: true },
  });
  const pages = pager({
    prefix: '',
    totalTestId: 'messages-total',
    label: 'Pages of dead letters',
    load: () => void run(load),
  });
  const record = deadLetterRecord(() => go(undefined));
  const bulk = bulkReplay();
  const messages = h(
    'section',
    { className: 'card', attrs: { 'data-testid': 'dlq-messages', 'aria-label': 'Dead letters' } },
    h(
      'div',
      { className: 'card-head' },
      h('h2', { text: 'Dead letters' }),
      h('button', {
        text: 'Refresh',
        className: 'secondary',
        attrs: { type: 'button', 'data-testid': 'messages-refresh' },
        on: { click: () => void run(load) },
      }),
    ),
    filters.form,
    h('div', { className: 'table-wrap' }, list),
    empty,
    pages.root,
  );
  const root = h(
    'section',
    { className: 'view', attrs: { 'data-testid': 'view-dead-letters' } },
    messages,
    bulk.root,
    record.root,
  );

  const latest = new Latest();
  let route: DeadLettersRoute = { view: 'dead-letters', filters: new URLSearchParams(), open: undefined };
  let shownFilters: string | undefined;

  function go(open: { topic: string; id: string } | undefined): void {
    window.location.hash = deadLettersHash(route.filters, open);
  }

  async function load(): Promise<void> {
    const isLatest = latest.next();
    const params = new URLSearchParams(route.filters);
    const topic = params.get('topic');
    params.delete('topic');
    // The per-topic list has no `agent`: a topic is one agent's already.
    if (topic) params.delete('agent');
    params.set('limit', String(pages.limit()));
    const cursor = pages.cursor();
    if (cursor !== undefined) params.set('cursor', cursor);
    busy(messages, true);
    try {
      const answer = await api<{ messages: DeadLetterSummary[]; total: number; next_cursor?: string }>(
        'GET',
        topic ? `v1/dlq/${segment(topic)}/messages?${params}` : `v1/dead-letters?${params}`,
      );
      if (!isLatest()) return;
      render(answer.messages);
      pages.shown(answer.messages.length, answer.total, answer.next_cursor);
    } finally {
      if (isLatest()) busy(messages, false);
    }
  }

  function render(rows: DeadLetterSummary[]): void {
    tbody(list).replaceChildren(
      ...rows.map((letter) => {
        const selected = route.open?.topic === letter.topic && route.open.id === letter.id;
        const open = () => go({ topic: letter.topic, id: letter.id });
        return h(
          'tr',
          {
            className: selected ? 'selected clickable' : 'clickable',
            attrs: {
              'data-testid': 'message-row',
              'data-id': letter.id,
              'data-topic': letter.topic,
              'data-task-id': letter.task_id ?? '',
            },
            on: { click: (event) => !(event.target as Element).closest('a, button') && open() },
          },
          h('td', {}, timeElement(letter.timestamp)),
          h('td', { className: 'mono small', text: letter.topic }),
          h(
            'td',
            {},
            h('button', {
              className: 'link mono',
              text: letter.id,
              attrs: {
                type: 'button',
                'data-testid': 'message-open',
                'aria-label': `Open dead letter ${letter.id} of ${letter.topic}`,
              },
              on: { click: open },
            }),
          ),
          h('td', {}, taskLink(letter.task_id)),
          h('td', { text: letter.handoff_type ?? '—' }),
          h(
            'td',
            { className: 'error-cell' },
            badge(letter.error_code, 'bad'),
            h('span', { className: 'clip', text: letter.error_message, attrs: { title: letter.error_message } }),
          ),
          h('td', { className: 'num', text: letter.attempts }),
          h('td', { className: 'num', text: letter.replay_count }),
        );
      }),
    );
    show(empty, rows.length === 0);
  }

  function restart(): void {
    pages.reset();
    void run(load);
  }

  filters.form.addEventListener('submit', (event) => {
    event.preventDefault();
    const wanted = deadLettersHash(filters.read());
    // The same filters again: a reload from the first page.
    if (window.location.hash === wanted) restart();
    else window.location.hash = wanted;
  });
  filters.form.addEventListener('reset', (event) => {
    event.preventDefault();
    window.location.hash = deadLettersHash(new URLSearchParams());
  });
  return {
    root,
    enter(next) {
      route = next;
      document.title = 'Dead letters · Baton';
      const filterKey = next.filters.toString();
      bulk.use(next.filters);
      const loads: Promise<void>[] = [];
      if (filterKey !== shownFilters) {
        shownFilters = filterKey;
        filters.fill(next.filters);
        pages.reset();
        loads.push(load());
      } else {
        for (const row of tbody(list).rows)
          row.classList.toggle('selected', row.dataset.topic === next.open?.topic && row.dataset.id === next.open?.id);
      }
      loads.push(record.show(next.open));
      void run(async () => {
        // Every load runs to its end; the first failure is the one shown.
        const failed = (await Promise.allSettled(loads)).find((outcome) => outcome.status === 'rejected');
        if (failed) throw failed.reason;
      });
    },
    leave() {
      latest.cancel();
      // Coming back loads the list again: it may have changed meanwhile.
      shownFilters = undefined;
    },
  };
}
