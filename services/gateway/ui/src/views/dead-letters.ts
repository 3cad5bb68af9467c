import type { DeadLetterSummary } from '@baton/gateway-api';
import { api, segment } from '../api.js';
import { badge, busy, h, show, table, taskLink, tbody, timeElement } from '../dom.js';
import { Latest, run } from '../feedback.js';
import { deadLettersHash, type Route } from '../router.js';
import type { View } from '../types.js';
import { bulkReplay } from './bulk-replay.js';
import { filterForm } from './dead-letter-filters.js';
import { deadLetterRecord } from './dead-letter-record.js';

/** The API's bounds of `limit`. */
const PAGE_SIZE = { default: 50, min: 1, max: 500 };

type DeadLettersRoute = Extract<Route, { view: 'dead-letters' }>;

/**
 * Every DLQ topic's dead letters in one list, newest first (GET /v1/dead-letters), or one topic's
 * (GET /v1/dlq/{topic}/messages) when filtered to it; paged by the API's cursor; a row opens the
 * record below the list. The filters live in the hash, so the overview's links land on them.
 */
export function deadLettersView(): View<DeadLettersRoute> {
  const filters = filterForm();
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
  const total = h('span', { attrs: { 'data-testid': 'messages-total', role: 'status' } });
  const pageSize = h('input', {
    attrs: {
      id: 'page-size',
      type: 'number',
      min: PAGE_SIZE.min,
      max: PAGE_SIZE.max,
      value: PAGE_SIZE.default,
      'data-testid': 'page-size',
    },
  });
  const prev = h('button', {
    text: 'Previous page',
    className: 'secondary',
    attrs: { type: 'button', 'data-testid': 'page-prev' },
  });
  const next = h('button', {
    text: 'Next page',
    className: 'secondary',
    attrs: { type: 'button', 'data-testid': 'page-next' },
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
    h(
      'nav',
      { className: 'pager', attrs: { 'aria-label': 'Pages of dead letters' } },
      total,
      h('label', { text: 'Rows per page', attrs: { for: 'page-size' } }),
      pageSize,
      prev,
      next,
    ),
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
  /** Cursors of the pages seen so far; the first page has none. */
  let cursors: (string | undefined)[] = [undefined];
  let page = 0;
  let nextCursor: string | undefined;
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
    params.set('limit', String(Number(pageSize.value) || PAGE_SIZE.default));
    const cursor = cursors[page];
    if (cursor !== undefined) params.set('cursor', cursor);
    busy(messages, true);
    try {
      const answer = await api<{ messages: DeadLetterSummary[]; total: number; next_cursor?: string }>(
        'GET',
        topic ? `v1/dlq/${segment(topic)}/messages?${params}` : `v1/dead-letters?${params}`,
      );
      if (!isLatest()) return;
      nextCursor = answer.next_cursor;
      render(answer.messages, answer.total);
    } finally {
      if (isLatest()) busy(messages, false);
    }
  }

  function render(rows: DeadLetterSummary[], count: number): void {
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
    const first = page * (Number(pageSize.value) || PAGE_SIZE.default);
    total.textContent =
      rows.length === 0
        ? `${count} matching`
        : `${first + 1}–${first + rows.length} of ${count} matching (page ${page + 1})`;
    prev.disabled = page === 0;
    next.disabled = nextCursor === undefined;
  }

  function restart(): void {
    cursors = [undefined];
    page = 0;
    nextCursor = undefined;
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
  pageSize.addEventListener('change', () => {
    const wanted = Number.parseInt(pageSize.value, 10);
    pageSize.value = String(
      Number.isFinite(wanted) ? Math.min(PAGE_SIZE.max, Math.max(PAGE_SIZE.min, wanted)) : PAGE_SIZE.default,
    );
    restart();
  });
  next.addEventListener('click', () => {
    if (nextCursor === undefined) return;
    cursors[page + 1] = nextCursor;
    page += 1;
    void run(load);
  });
  prev.addEventListener('click', () => {
    if (page === 0) return;
    page -= 1;
    void run(load);
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
        cursors = [undefined];
        page = 0;
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
