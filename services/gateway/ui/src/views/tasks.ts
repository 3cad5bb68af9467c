import { ageText, type TaskListAnswer, type TaskListRow } from '@baton/gateway-api';
import { api } from '../api.js';
import { badge, busy, code, h, show, table, taskLink, tbody, timeElement } from '../dom.js';
import { filterForm } from '../filter-form.js';
import { Latest, run } from '../feedback.js';
import { pager } from '../pager.js';
import { taskHash, tasksHash, type Route } from '../router.js';
import type { View } from '../types.js';
import { STATUS_TONES, taskDetail } from './task.js';

type TasksRoute = Extract<Route, { view: 'tasks' }>;

/** The statuses the list filters by, STUCK first: what an operator looks for. */
const STATUSES = ['STUCK', 'EXECUTING', 'WAITING', 'BREAK', 'FINISH', 'FAILED', 'EXPIRED', 'CREATE'] as const;

/**
 * The tasks, newest first (GET /v1/tasks), filtered as the hash says and paged by the API's cursor;
 * a row opens its task (#/tasks/<id>), whose page links back to the list as it was. A box opens any
 * task or flow by its id.
 */
export function tasksView(): View<TasksRoute> {
  const filters = filterForm({
    prefix: 'task-filter',
    fields: [
      { name: 'status', label: 'Status', choices: STATUSES },
      { name: 'agent', label: 'Agent', placeholder: 'refunds_agent' },
      { name: 'handoff_type', label: 'Handoff type', placeholder: 'ESCALATION' },
      { name: 'issue_category', label: 'Issue category', placeholder: 'BILLING' },
      { name: 'error_code', label: 'Error code', placeholder: 'MODEL_UNAVAILABLE' },
      { name: 'q', label: 'Id contains', placeholder: 'task, parent, correlation or message id' },
    ],
    times: { from: 'Active since (local time)', to: 'Created by (local time)' },
  });
  const idInput = h('input', {
    attrs: {
      id: 'task-id-input',
      name: 'task_id',
      required: true,
      'data-testid': 'task-id-input',
      spellcheck: 'false',
    },
  });
  const idForm = h(
    'form',
    { className: 'task-form', attrs: { 'data-testid': 'task-form', autocomplete: 'off' } },
    h('label', { text: 'Task or correlation id', attrs: { for: 'task-id-input' } }),
    idInput,
    h('button', { text: 'Show', attrs: { type: 'submit', 'data-testid': 'task-show' } }),
  );
  const list = table(
    'tasks-table',
    'Tasks, newest first; choose a row to see its story',
    ['Task', 'Status', 'Owner', 'Handoff types', 'Age', 'Idle', 'Last outcome'],
    'data tasks',
  );
  const empty = h('p', {
    className: 'empty',
    text: 'No task matches.',
    attrs: { 'data-testid': 'tasks-empty', hidden: true },
  });
  const pages = pager({
    prefix: 'tasks-',
    totalTestId: 'tasks-total',
    label: 'Pages of tasks',
    load: () => void run(load),
  });
  const listCard = h(
    'section',
    { className: 'card', attrs: { 'data-testid': 'task-list', 'aria-labelledby': 'tasks-heading' } },
    h(
      'div',
      { className: 'card-head' },
      h('h2', { text: 'Tasks', attrs: { id: 'tasks-heading' } }),
      h('button', {
        text: 'Refresh',
        className: 'secondary',
        attrs: { type: 'button', 'data-testid': 'tasks-refresh' },
        on: { click: () => void run(load) },
      }),
    ),
    idForm,
    filters.form,
    h('div', { className: 'table-wrap' }, list),
    empty,
    pages.root,
  );
  const detail = taskDetail();
  const root = h('section', { className: 'view', attrs: { 'data-testid': 'view-tasks' } }, listCard, detail.root);

  const latest = new Latest();
  let route: TasksRoute = { view: 'tasks', taskId: undefined, filters: new URLSearchParams() };
  /** The list as last shown, which a task's back link returns to. */
  let listHash = tasksHash(route.filters);

  async function load(): Promise<void> {
    const isLatest = latest.next();
    const params = new URLSearchParams(route.filters);
    params.set('limit', String(pages.limit()));
    const cursor = pages.cursor();
    if (cursor !== undefined) params.set('cursor', cursor);
    busy(listCard, true);
    try {
      const answer = await api<TaskListAnswer>('GET', `v1/tasks?${params}`);
      if (!isLatest()) return;
      tbody(list).replaceChildren(...answer.tasks.map((task) => taskRow(task, Date.now())));
      show(empty, answer.tasks.length === 0);
      pages.shown(answer.tasks.length, answer.total, answer.next_cursor);
    } finally {
      if (isLatest()) busy(listCard, false);
    }
  }

  filters.form.addEventListener('submit', (event) => {
    event.preventDefault();
    const wanted = tasksHash(filters.read());
    // The same filters again: a reload from the first page.
    if (window.location.hash === wanted) {
      pages.reset();
      void run(load);
    } else window.location.hash = wanted;
  });
  filters.form.addEventListener('reset', (event) => {
    event.preventDefault();
    window.location.hash = tasksHash(new URLSearchParams());
  });
  idForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const id = idInput.value.trim();
    if (id) window.location.hash = taskHash(id);
  });

  return {
    root,
    enter(next) {
      route = next;
      show(listCard, next.taskId === undefined);
      show(detail.root, next.taskId !== undefined);
      if (next.taskId !== undefined) {
        detail.open(next.taskId, listHash);
        return;
      }
      detail.leave();
      listHash = tasksHash(next.filters);
      document.title = 'Tasks · Baton';
      // Back from a task too: the list reloads from the first page, with the filters it had.
      filters.fill(next.filters);
      pages.reset();
      void run(load);
    },
    leave() {
      latest.cancel();
      detail.leave();
    },
  };
}

function taskRow(task: TaskListRow, now: number): HTMLElement {
  const open = () => (window.location.hash = taskHash(task.task_id));
  const last = task.last_outcome;
  return h(
    'tr',
    {
      className: 'clickable',
      attrs: {
        'data-testid': 'task-row',
        'data-task-id': task.task_id,
        'data-status': task.stuck ? 'STUCK' : task.status,
      },
      on: { click: (event) => !(event.target as Element).closest('a, button') && open() },
    },
    h('td', {}, taskLink(task.task_id)),
    h(
      'td',
      { attrs: { 'data-col': 'status' } },
      badge(task.status, STATUS_TONES[task.status] ?? 'info'),
      task.stuck && [' ', badge(`stuck: ${task.stuck}`, 'bad')],
    ),
    h('td', {}, code(task.owner)),
    h('td', { className: 'wrap', text: task.handoff_types.join(', ') || '—' }),
    h('td', { className: 'num', attrs: { title: task.created_at } }, ageText(task.created_at, now)),
    h('td', { className: 'num', attrs: { title: task.updated_at } }, ageText(task.updated_at, now)),
    h(
      'td',
      { attrs: { 'data-col': 'last-outcome' } },
      last === undefined
        ? '—'
        : [
            badge(last.outcome),
            ' ',
            code(last.agent_id),
            last.error_code && [' ', badge(last.error_code, 'bad')],
            ' ',
            timeElement(last.time),
          ],
    ),
  );
}
