/**
 * The gateway's operator page: dead letters (list, filter, inspect, replay) and task timelines with
 * their negotiated handoffs.
 * Plain DOM, no dependency, no build step. Every piece of data reaches the page through
 * textContent or attribute values, never as HTML.
 */

const TOKEN_KEY = 'baton.gateway.token';
/** The API's bounds of `limit`. */
const PAGE_SIZE = { default: 50, min: 1, max: 500 };
/** The page is served at `<base>/ui/`; the API lives at `<base>/v1/`. */
const API_BASE = new URL('../', window.location.href);

/** An answer other than 2xx, or no answer, carrying the API's `{error: {code, message}}`. */
class ApiError extends Error {
  constructor(status, code, message, details = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.path = details.path;
    this.issues = Array.isArray(details.issues) ? details.issues : [];
  }
}

// ---------------------------------------------------------------------------------------------
// DOM helpers

/** The element with `data-testid="<id>"`: the page's stable hooks, for the code as for tests. */
function byTestId(id, root = document) {
  const found = root.querySelector(`[data-testid="${id}"]`);
  if (!found) throw new Error(`the page has no [data-testid="${id}"]`);
  return found;
}

/**
 * A new element. `props`: `text` (set as textContent), `className`, `attrs` (set as attributes),
 * `on` (event listeners). Children are nodes or strings (inserted as text).
 */
function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  if (props.text !== undefined && props.text !== null) node.textContent = String(props.text);
  if (props.className) node.className = props.className;
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(name, value === true ? '' : value);
  }
  for (const [type, listener] of Object.entries(props.on ?? {})) node.addEventListener(type, listener);
  for (const child of children.flat()) {
    if (child !== undefined && child !== null && child !== false) node.append(child);
  }
  return node;
}

function clear(node) {
  node.replaceChildren();
  return node;
}

/** An ISO instant shown in UTC to the millisecond, with the local time as its tooltip. */
function timeElement(iso) {
  const date = new Date(iso);
  if (iso === undefined || iso === null || Number.isNaN(date.getTime())) return h('span', { text: iso ?? '—' });
  return h('time', {
    text: date.toISOString().replace('T', ' '),
    attrs: { datetime: date.toISOString(), title: date.toLocaleString() },
  });
}

function code(text) {
  return h('code', { text });
}

/** A badge whose colour says how an outcome or error went. */
function badge(text, tone = toneOf(text)) {
  return h('span', { className: 'badge', text, attrs: { 'data-tone': tone } });
}

function toneOf(outcome) {
  if (outcome === 'COMPLETED' || outcome === 'REPLAYED' || outcome === 'ok') return 'good';
  if (/DEAD|FAIL|REJECT|EXPIRED|ERROR|EXHAUSTED|INVALID|NO_ROUTE|FORBIDDEN/.test(outcome ?? '')) return 'bad';
  if (/ESCALAT|PENDING|RETRY|WAIT/.test(outcome ?? '')) return 'warn';
  return 'info';
}

function taskLink(taskId) {
  if (taskId === undefined || taskId === null || taskId === '') return h('span', { className: 'subtle', text: '—' });
  return h('a', {
    text: taskId,
    className: 'mono',
    attrs: {
      href: `#/task/${encodeURIComponent(taskId)}`,
      'data-testid': 'task-link',
      title: `Show the timeline of task ${taskId}`,
    },
  });
}

/** Fills a <dl> with [term, description, field] rows; descriptions are nodes or text. */
function fillList(dl, rows) {
  clear(dl);
  for (const [term, description, field] of rows) {
    dl.append(
      h(
        'div',
        { className: 'pair' },
        h('dt', { text: term }),
        h('dd', { attrs: { 'data-field': field } }, description),
      ),
    );
  }
}

function show(node, visible) {
  node.hidden = !visible;
}

function busy(node, isBusy) {
  node.setAttribute('aria-busy', String(isBusy));
}

// ---------------------------------------------------------------------------------------------
// Credential and API

/** The token in use; kept in sessionStorage, so it lasts as long as the tab and no longer. */
let memoryToken = readToken();

function readToken() {
  try {
    return window.sessionStorage.getItem(TOKEN_KEY) ?? '';
  } catch {
    return '';
  }
}

function writeToken(token) {
  try {
    if (token) window.sessionStorage.setItem(TOKEN_KEY, token);
    else window.sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // Storage refused (a locked-down browser): the token lives as long as this page.
  }
  memoryToken = token;
}

/** Calls the API; resolves with the parsed answer, rejects with an ApiError. */
async function api(method, path, body) {
  const headers = { accept: 'application/json' };
  if (memoryToken) headers.authorization = `Bearer ${memoryToken}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response;
  try {
    response = await fetch(new URL(path, API_BASE), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
      credentials: 'omit',
    });
  } catch (error) {
    throw new ApiError(0, 'NETWORK_ERROR', `The gateway did not answer: ${error.message}`);
  }
  const text = await response.text();
  let parsed;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const error = parsed?.error;
    if (error && typeof error.code === 'string') {
      throw new ApiError(response.status, error.code, String(error.message ?? ''), error);
    }
    throw new ApiError(response.status, `HTTP_${response.status}`, text.slice(0, 300) || response.statusText);
  }
  if (parsed === undefined && text !== '') throw new ApiError(response.status, 'BAD_ANSWER', 'The answer is not JSON');
  return parsed;
}

const segment = (value) => encodeURIComponent(value);

// ---------------------------------------------------------------------------------------------
// Error banner

const banner = {
  root: byTestId('error-banner'),
  code: byTestId('error-code'),
  status: byTestId('error-status'),
  message: byTestId('error-message'),
  issues: byTestId('error-issues'),
};

function showError(error) {
  const apiError = error instanceof ApiError ? error : new ApiError(0, 'PAGE_ERROR', String(error?.message ?? error));
  banner.code.textContent = apiError.code;
  banner.status.textContent = apiError.status ? `HTTP ${apiError.status}` : '';
  banner.message.textContent = apiError.path ? `${apiError.message} (at ${apiError.path})` : apiError.message;
  clear(banner.issues);
  for (const issue of apiError.issues) {
    banner.issues.append(h('li', {}, code(issue.code), ' ', code(issue.path), ' ', issue.message ?? ''));
  }
  show(banner.issues, apiError.issues.length > 0);
  show(banner.root, true);
  if (!(error instanceof ApiError)) console.error(error);
}

function clearError() {
  show(banner.root, false);
}

byTestId('error-dismiss').addEventListener('click', clearError);

/** Runs what a user asked for: clears the last error, shows this one's failure. */
async function run(action) {
  clearError();
  try {
    await action();
  } catch (error) {
    showError(error);
  }
}

// ---------------------------------------------------------------------------------------------
// Routing: #/dlq, #/dlq/<topic>, #/dlq/<topic>/<id>, #/task, #/task/<task_id>

function parseRoute() {
  let parts;
  try {
    parts = window.location.hash
      .replace(/^#\/?/, '')
      .split('/')
      .filter((part) => part !== '')
      .map((part) => decodeURIComponent(part));
  } catch {
    parts = [];
  }
  if (parts[0] === 'task') return { view: 'task', taskId: parts[1] ?? null };
  return { view: 'dlq', topic: parts[0] === 'dlq' ? (parts[1] ?? null) : null, id: parts[2] ?? null };
}

/** Goes to `hash`; when the page is there already, runs `again` (a reload) instead. */
function go(hash, again) {
  if (window.location.hash === hash) void run(again);
  else window.location.hash = hash;
}

const views = { dlq: byTestId('view-dlq'), task: byTestId('view-task') };
const state = {
  topic: null,
  id: null,
  /** Cursors of the pages seen so far; the first page has none. */
  cursors: [undefined],
  page: 0,
  pageSize: PAGE_SIZE.default,
  nextCursor: undefined,
  filters: new URLSearchParams(),
  /** Each load counts up its own counter; an answer that is no longer the latest is dropped. */
  seq: { topics: 0, messages: 0, detail: 0, timeline: 0 },
};

function applyRoute() {
  const route = parseRoute();
  for (const [name, view] of Object.entries(views)) show(view, name === route.view);
  for (const link of document.querySelectorAll('[data-view-link]')) {
    if (link.dataset.viewLink === route.view) {
      link.setAttribute('aria-current', 'page');
      // Coming back to a view returns to where it was left.
      link.setAttribute('href', window.location.hash || '#/dlq');
    } else {
      link.removeAttribute('aria-current');
    }
  }
  if (route.view === 'task') {
    document.title = route.taskId ? `Task ${route.taskId} · Baton` : 'Task timeline · Baton';
    if (route.taskId) {
      taskInput.value = route.taskId;
      if (memoryToken) void run(() => loadTimeline(route.taskId));
    } else {
      taskInput.focus();
    }
    return;
  }
  document.title = 'Dead letters · Baton';
  if (!memoryToken) return;
  void run(async () => {
    const loads = [loadTopics()];
    if (route.topic !== state.topic) {
      state.topic = route.topic;
      resetPaging();
      if (route.topic) loads.push(loadMessages());
      else show(messages.root, false);
    }
    if (route.id !== state.id) {
      state.id = route.id;
      if (route.id) loads.push(loadDetail({ fresh: true }));
      else closeDetailView();
    }
    // Every load runs to its end; the first failure is the one shown.
    const failed = (await Promise.allSettled(loads)).find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  });
}

window.addEventListener('hashchange', applyRoute);

// ---------------------------------------------------------------------------------------------
// Credential form

const tokenForm = byTestId('token-form');
const tokenInput = byTestId('token-input');
const tokenStatus = byTestId('token-status');

function showTokenStatus() {
  tokenStatus.textContent = memoryToken ? 'Token set for this tab.' : 'No token: enter one to begin.';
  tokenStatus.dataset.state = memoryToken ? 'set' : 'missing';
}

tokenForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const token = tokenInput.value.trim();
  if (!token) {
    tokenInput.focus();
    return;
  }
  writeToken(token);
  tokenInput.value = '';
  showTokenStatus();
  // Everything on screen is loaded again with the new credential.
  state.topic = null;
  state.id = null;
  applyRoute();
});

byTestId('token-forget').addEventListener('click', () => {
  writeToken('');
  showTokenStatus();
  clearError();
  clear(topics.body);
  show(messages.root, false);
  closeDetailView();
  clearTimeline();
  timeline.status.textContent = '';
  state.topic = null;
  state.id = null;
  tokenInput.focus();
});

// ---------------------------------------------------------------------------------------------
// Dead-letter topics

const topics = {
  root: byTestId('dlq-topics'),
  body: byTestId('dlq-topics').querySelector('tbody'),
  empty: byTestId('topics-empty'),
};

async function loadTopics() {
  const seq = ++state.seq.topics;
  busy(topics.root, true);
  try {
    const answer = await api('GET', 'v1/dlq');
    if (seq !== state.seq.topics) return;
    renderTopics(answer.topics ?? []);
  } finally {
    if (seq === state.seq.topics) busy(topics.root, false);
  }
}

function renderTopics(list) {
  clear(topics.body);
  for (const topic of list) {
    const selected = topic.topic === state.topic;
    const open = h('a', {
      className: 'topic-link',
      text: topic.topic,
      attrs: {
        href: `#/dlq/${segment(topic.topic)}`,
        'data-testid': 'topic-link',
        'aria-current': selected ? 'true' : undefined,
      },
      on: {
        click: (event) => {
          // Choosing the open topic again reloads it from its first page.
          if (state.topic === topic.topic && !state.id) {
            event.preventDefault();
            resetPaging();
            void run(loadMessages);
          }
        },
      },
    });
    topics.body.append(
      h(
        'tr',
        {
          className: selected ? 'selected' : '',
          attrs: { 'data-testid': 'topic-row', 'data-topic': topic.topic },
        },
        h('td', {}, open, h('div', { className: 'subtle small', text: `from ${topic.source_topic}` })),
        h(
          'td',
          { className: 'num' },
          h('span', { className: 'count', text: topic.count, attrs: { 'data-testid': 'topic-count' } }),
        ),
      ),
    );
  }
  show(topics.empty, list.length === 0);
}

byTestId('topics-refresh').addEventListener('click', () => void run(loadTopics));

// ---------------------------------------------------------------------------------------------
// Messages of a topic

const messages = {
  root: byTestId('dlq-messages'),
  topic: byTestId('messages-topic'),
  table: byTestId('messages-table'),
  body: byTestId('messages-table').querySelector('tbody'),
  empty: byTestId('messages-empty'),
  total: byTestId('messages-total'),
  prev: byTestId('page-prev'),
  next: byTestId('page-next'),
  form: byTestId('filter-form'),
  pageSize: byTestId('page-size'),
};

function resetPaging() {
  state.cursors = [undefined];
  state.page = 0;
  state.nextCursor = undefined;
}

/** The filter form as query parameters, as the API names them. */
function filtersFromForm() {
  const form = new FormData(messages.form);
  const params = new URLSearchParams();
  for (const name of ['error_code', 'task_id', 'handoff_type']) {
    const value = String(form.get(name) ?? '').trim();
    if (value) params.set(name, value);
  }
  for (const line of String(form.get('header') ?? '').split('\n')) {
    if (line.trim()) params.append('header', line.trim());
  }
  for (const name of ['from', 'to']) {
    const value = String(form.get(name) ?? '');
    // datetime-local is the viewer's local time; the API takes an instant.
    const instant = value ? new Date(value) : undefined;
    if (instant) params.set(name, Number.isNaN(instant.getTime()) ? value : instant.toISOString());
  }
  return params;
}

async function loadMessages() {
  const topic = state.topic;
  if (!topic) return;
  const seq = ++state.seq.messages;
  messages.topic.textContent = topic;
  show(messages.root, true);
  busy(messages.root, true);
  try {
    const params = new URLSearchParams(state.filters);
    params.set('limit', String(state.pageSize));
    const cursor = state.cursors[state.page];
    if (cursor !== undefined) params.set('cursor', cursor);
    const answer = await api('GET', `v1/dlq/${segment(topic)}/messages?${params}`);
    if (seq !== state.seq.messages) return;
    state.nextCursor = answer.next_cursor;
    renderMessages(answer.messages ?? [], answer.total ?? 0);
  } catch (error) {
    if (seq === state.seq.messages) {
      clear(messages.body);
      messages.total.textContent = '';
    }
    throw error;
  } finally {
    if (seq === state.seq.messages) busy(messages.root, false);
  }
}

function openMessage(id) {
  go(`#/dlq/${segment(state.topic)}/${segment(id)}`, () => loadDetail({ fresh: false }));
}

function renderMessages(list, total) {
  clear(messages.body);
  for (const message of list) {
    const open = h('button', {
      className: 'link mono',
      text: message.id,
      attrs: {
        type: 'button',
        'data-testid': 'message-open',
        'aria-label': `Open dead letter ${message.id}`,
        'aria-current': message.id === state.id ? 'true' : undefined,
      },
      on: { click: () => openMessage(message.id) },
    });
    const row = h(
      'tr',
      {
        className: message.id === state.id ? 'selected clickable' : 'clickable',
        attrs: { 'data-testid': 'message-row', 'data-id': message.id, 'data-task-id': message.task_id ?? '' },
        on: {
          click: (event) => {
            if (event.target.closest('a, button')) return;
            openMessage(message.id);
          },
        },
      },
      h('td', {}, open),
      h('td', {}, timeElement(message.timestamp)),
      h('td', {}, taskLink(message.task_id)),
      h('td', { text: message.handoff_type ?? '—' }),
      h(
        'td',
        { className: 'error-cell' },
        badge(message.error_code, 'bad'),
        h('span', { className: 'clip', text: message.error_message, attrs: { title: message.error_message } }),
      ),
      h('td', { className: 'num', text: message.attempts }),
      h('td', { className: 'num', text: message.replay_count }),
    );
    messages.body.append(row);
  }
  show(messages.empty, list.length === 0);
  const first = state.page * state.pageSize;
  messages.total.textContent =
    list.length === 0
      ? `${total} matching`
      : `${first + 1}–${first + list.length} of ${total} matching (page ${state.page + 1})`;
  messages.prev.disabled = state.page === 0;
  messages.next.disabled = state.nextCursor === undefined;
}

messages.form.addEventListener('submit', (event) => {
  event.preventDefault();
  state.filters = filtersFromForm();
  resetPaging();
  void run(loadMessages);
});

messages.form.addEventListener('reset', () => {
  // After the browser has emptied the fields.
  window.setTimeout(() => {
    state.filters = new URLSearchParams();
    resetPaging();
    void run(loadMessages);
  });
});

messages.pageSize.addEventListener('change', () => {
  const wanted = Number.parseInt(messages.pageSize.value, 10);
  state.pageSize = Number.isFinite(wanted)
    ? Math.min(PAGE_SIZE.max, Math.max(PAGE_SIZE.min, wanted))
    : PAGE_SIZE.default;
  messages.pageSize.value = String(state.pageSize);
  resetPaging();
  void run(loadMessages);
});

messages.next.addEventListener('click', () => {
  if (state.nextCursor === undefined) return;
  state.cursors[state.page + 1] = state.nextCursor;
  state.page += 1;
  void run(loadMessages);
});

messages.prev.addEventListener('click', () => {
  if (state.page === 0) return;
  state.page -= 1;
  void run(loadMessages);
});

byTestId('messages-refresh').addEventListener('click', () => void run(loadMessages));

// ---------------------------------------------------------------------------------------------
// One dead letter

const detail = {
  root: byTestId('dlq-detail'),
  id: byTestId('detail-id'),
  summary: byTestId('detail-summary'),
  error: byTestId('detail-error'),
  headers: byTestId('detail-headers').querySelector('tbody'),
  body: byTestId('detail-body'),
  bodyError: byTestId('detail-body-error'),
  replays: byTestId('detail-replays').querySelector('tbody'),
  replaysEmpty: byTestId('detail-replays-empty'),
  form: byTestId('replay-form'),
  reason: byTestId('replay-reason'),
  target: byTestId('replay-target'),
  newId: byTestId('replay-new-id'),
  submit: byTestId('replay-submit'),
  result: byTestId('replay-result'),
};

function closeDetailView() {
  state.seq.detail += 1;
  show(detail.root, false);
  markSelectedRow();
}

function markSelectedRow() {
  for (const row of messages.body.querySelectorAll('tr')) {
    const selected = row.dataset.id === state.id && !detail.root.hidden;
    row.classList.toggle('selected', selected);
    const button = row.querySelector('button');
    if (selected) button?.setAttribute('aria-current', 'true');
    else button?.removeAttribute('aria-current');
  }
}

/** Loads the open dead letter; `fresh` when another one was open before (its replay form is reset). */
async function loadDetail({ fresh }) {
  const { topic, id } = state;
  if (!topic || !id) return;
  const seq = ++state.seq.detail;
  if (fresh) {
    detail.form.reset();
    show(detail.result, false);
  }
  busy(detail.root, true);
  try {
    const letter = await api('GET', `v1/dlq/${segment(topic)}/messages/${segment(id)}`);
    if (seq !== state.seq.detail) return;
    renderDetail(letter);
    show(detail.root, true);
    markSelectedRow();
    if (fresh) detail.root.scrollIntoView({ block: 'start', behavior: 'smooth' });
  } catch (error) {
    if (seq === state.seq.detail) show(detail.root, false);
    throw error;
  } finally {
    if (seq === state.seq.detail) busy(detail.root, false);
  }
}

function renderDetail(letter) {
  detail.id.textContent = letter.id;
  fillList(detail.summary, [
    ['Topic', code(letter.topic), 'topic'],
    ['Partition / offset', `${letter.partition} / ${letter.offset}`, 'position'],
    ['Dead-lettered', timeElement(letter.timestamp), 'timestamp'],
    ['Task id', taskLink(letter.task_id), 'task_id'],
    ['Message id', letter.message_id ? code(letter.message_id) : '—', 'message_id'],
    ['Handoff type', letter.handoff_type ?? '—', 'handoff_type'],
    ['Replays', String(letter.replay_count ?? 0), 'replay_count'],
  ]);
  const error = letter.error ?? {};
  const source = error.source ?? {};
  fillList(detail.error, [
    ['Code', badge(error.code ?? letter.error_code, 'bad'), 'code'],
    ['Message', error.message ?? letter.error_message, 'message'],
    ['Stage', error.stage ?? letter.stage, 'stage'],
    ['Attempts', String(error.attempts ?? letter.attempts), 'attempts'],
    ['Retriable', error.retriable === undefined ? '—' : error.retriable ? 'yes' : 'no', 'retriable'],
    ['Class', error.class ?? '—', 'class'],
    ['Source topic', code(source.topic ?? letter.source_topic), 'source_topic'],
    ['Source partition', String(source.partition ?? '—'), 'source_partition'],
    ['Source offset', String(source.offset ?? '—'), 'source_offset'],
    ['Consumer group', error.consumer_group ?? '—', 'consumer_group'],
    ['Instance', error.instance_id ?? '—', 'instance_id'],
    ['Time', timeElement(error.time), 'time'],
  ]);
  detail.target.placeholder = letter.source_topic ?? '';

  clear(detail.headers);
  for (const [name, value] of Object.entries(letter.headers ?? {})) {
    detail.headers.append(
      h(
        'tr',
        { attrs: { 'data-testid': 'header-row', 'data-name': name } },
        h('th', { className: 'mono', text: name, attrs: { scope: 'row' } }),
        h('td', { className: 'mono wrap', text: value }),
      ),
    );
  }

  if (letter.body !== null && letter.body !== undefined) {
    detail.body.textContent = JSON.stringify(letter.body, null, 2);
    show(detail.body, true);
    show(detail.bodyError, false);
  } else {
    show(detail.body, false);
    const bodyError = letter.body_error;
    detail.bodyError.textContent = bodyError
      ? `The body does not decode: ${bodyError.code}: ${bodyError.message}`
      : 'The record has no value.';
    show(detail.bodyError, true);
  }

  const replays = letter.replays ?? [];
  clear(detail.replays);
  for (const entry of replays) {
    detail.replays.append(
      h(
        'tr',
        { attrs: { 'data-testid': 'replay-row', 'data-audit-id': entry.audit_id } },
        h('td', {}, timeElement(entry.time)),
        h('td', { text: entry.actor }),
        h('td', { text: entry.action }),
        h('td', { className: 'wrap', text: entry.reason }),
        h('td', { className: 'mono', text: entry.target_topic ?? '—' }),
        h(
          'td',
          { className: 'mono' },
          entry.message_id ?? '—',
          entry.new_message_id ? h('span', { className: 'subtle', text: ' (new id)' }) : null,
        ),
        h('td', {}, badge(entry.outcome ?? '—')),
      ),
    );
  }
  show(detail.replaysEmpty, replays.length === 0);
}

function showReplayResult(result) {
  clear(detail.result);
  detail.result.dataset.state = 'ok';
  const list = h('dl');
  fillList(list, [
    ['Sent to', code(result.target_topic), 'target_topic'],
    ['Partition / offset', `${result.partition} / ${result.offset}`, 'position'],
    ['Message id', code(result.message_id), 'message_id'],
    ['Audit id', code(result.audit_id), 'audit_id'],
  ]);
  detail.result.append(h('p', { className: 'result-title', text: `Replayed dead letter ${result.id}.` }), list);
  show(detail.result, true);
}

function showReplayFailure(error) {
  clear(detail.result);
  detail.result.dataset.state = 'failed';
  detail.result.append(
    h('p', { className: 'result-title' }, 'Replay refused: ', badge(error.code, 'bad'), ' ', error.message),
  );
  show(detail.result, true);
}

/** The audit trail is read from Kafka: the new entry shows up shortly after the answer. */
async function followReplay(auditId, seq) {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    await new Promise((resolve) => window.setTimeout(resolve, 250 + attempt * 100));
    if (seq !== state.seq.detail) return;
    let letter;
    try {
      letter = await api('GET', `v1/dlq/${segment(state.topic)}/messages/${segment(state.id)}`);
    } catch {
      return;
    }
    if (seq !== state.seq.detail) return;
    if ((letter.replays ?? []).some((entry) => entry.audit_id === auditId)) {
      renderDetail(letter);
      return;
    }
  }
}

detail.form.addEventListener('submit', (event) => {
  event.preventDefault();
  const { topic, id } = state;
  const reason = detail.reason.value.trim();
  if (!reason) {
    detail.reason.focus();
    return;
  }
  const body = { reason, new_message_id: detail.newId.checked };
  const target = detail.target.value.trim();
  if (target) body.target_topic = target;
  void run(async () => {
    detail.submit.disabled = true;
    show(detail.result, false);
    try {
      const result = await api('POST', `v1/dlq/${segment(topic)}/messages/${segment(id)}/replay`, body);
      showReplayResult(result);
      void followReplay(result.audit_id, state.seq.detail);
    } catch (error) {
      if (error instanceof ApiError) showReplayFailure(error);
      throw error;
    } finally {
      detail.submit.disabled = false;
    }
  });
});

byTestId('detail-reload').addEventListener('click', () => void run(() => loadDetail({ fresh: false })));
byTestId('detail-close').addEventListener('click', () => {
  window.location.hash = `#/dlq/${segment(state.topic)}`;
});

// ---------------------------------------------------------------------------------------------
// Task timeline

const taskForm = byTestId('task-form');
const taskInput = byTestId('task-id-input');
const timeline = {
  root: byTestId('view-task'),
  summary: byTestId('task-summary'),
  table: byTestId('timeline-table'),
  body: byTestId('timeline-table').querySelector('tbody'),
  status: byTestId('timeline-status'),
  negotiations: byTestId('negotiations'),
  negotiationList: byTestId('negotiation-list'),
};

function clearTimeline() {
  clear(timeline.summary);
  clear(timeline.body);
  clear(timeline.negotiationList);
  show(timeline.summary, false);
  show(timeline.table, false);
  show(timeline.negotiations, false);
}

async function loadTimeline(taskId) {
  const seq = ++state.seq.timeline;
  busy(timeline.root, true);
  timeline.status.textContent = `Loading the timeline of ${taskId}…`;
  try {
    const answer = await api('GET', `v1/tasks/${segment(taskId)}`);
    if (seq !== state.seq.timeline) return;
    renderTaskSummary(answer);
    renderTimeline(answer.events ?? []);
    renderNegotiations(answer.negotiations ?? []);
    timeline.status.textContent = `${answer.events.length} event(s) of task ${answer.task_id}, as of ${new Date().toLocaleTimeString()}.`;
  } catch (error) {
    if (seq === state.seq.timeline) {
      clearTimeline();
      timeline.status.textContent = `No timeline shown for ${taskId}.`;
    }
    throw error;
  } finally {
    if (seq === state.seq.timeline) busy(timeline.root, false);
  }
}

/** FAILED and EXPIRED are final: the task is not processed further. */
const STATUS_TONES = { FINISH: 'good', BREAK: 'bad', FAILED: 'bad', EXPIRED: 'bad', WAITING: 'warn' };

function renderTaskSummary(answer) {
  const refused = answer.refused ?? [];
  fillList(timeline.summary, [
    ['Status', badge(answer.status, STATUS_TONES[answer.status] ?? 'info'), 'status'],
    ['Owner', answer.owner ? code(answer.owner) : '—', 'owner'],
    ...(refused.length > 0 ? [['Refused messages', String(refused.length), 'refused']] : []),
  ]);
  show(timeline.summary, true);
}

const MESSAGE_TONES = {
  HandoffAccept: 'good',
  HandoffComplete: 'good',
  HandoffReject: 'warn',
  ErrorNotification: 'bad',
};

function messageTone(event) {
  if (event.message_type === 'HandoffComplete' && event.detail === 'FAILURE') return 'bad';
  return MESSAGE_TONES[event.message_type] ?? 'info';
}

/**
 * The columns of one step, whatever its kind: who wrote it, what happened, between whom and its
 * gist. A lifecycle message the state machine refused is shown, marked, with why.
 */
function stepCells(event) {
  if (event.kind === 'lifecycle') {
    return {
      agent: event.sender,
      step: [badge(event.message_type, messageTone(event)), ...(event.refused ? [' ', badge('refused', 'bad')] : [])],
      handoffType: '—',
      route: `${event.sender} → ${event.receiver}`,
      target: '—',
      detail: [
        event.detail ?? (event.refused ? null : '—'),
        event.refused ? h('div', { className: 'refusal small', text: `refused: ${event.refused.message}` }) : null,
      ],
    };
  }
  if (event.kind === 'staged') {
    return {
      agent: event.sender,
      step: [badge('staged')],
      handoffType: '—',
      route: '—',
      target: '—',
      detail: [event.detail],
    };
  }
  const route = [event.sender, event.receiver].some((part) => part)
    ? `${event.sender ?? '?'} → ${event.receiver ?? '?'}`
    : '—';
  return {
    agent: event.agent_id,
    step: [badge(event.outcome)],
    handoffType: [
      event.handoff_type,
      event.issue_category ? h('div', { className: 'subtle small', text: event.issue_category }) : null,
    ],
    route,
    target: event.target ?? '—',
    detail: [
      event.error_code ? badge(event.error_code, 'bad') : null,
      event.error_code && event.detail ? ' ' : null,
      event.detail ?? (event.error_code ? null : '—'),
    ],
  };
}

function renderTimeline(events) {
  clear(timeline.body);
  events.forEach((event, index) => {
    const cells = stepCells(event);
    timeline.body.append(
      h(
        'tr',
        {
          className: event.refused ? 'refused' : undefined,
          attrs: {
            'data-testid': 'timeline-row',
            'data-kind': event.kind ?? 'outcome',
            'data-outcome': event.outcome,
            'data-message-type': event.message_type,
            'data-agent': cells.agent,
            'data-refused': Boolean(event.refused),
          },
        },
        h('td', { className: 'num', text: index + 1 }),
        h('td', { attrs: { 'data-col': 'time' } }, timeElement(event.time)),
        h('td', { className: 'mono', text: cells.agent, attrs: { 'data-col': 'agent' } }),
        h('td', { attrs: { 'data-col': 'step' } }, cells.step),
        h('td', { attrs: { 'data-col': 'handoff_type' } }, cells.handoffType),
        h('td', { className: 'mono', text: cells.route, attrs: { 'data-col': 'route' } }),
        h('td', { className: 'mono', text: cells.target, attrs: { 'data-col': 'target' } }),
        h('td', { className: 'wrap', attrs: { 'data-col': 'detail' } }, cells.detail),
      ),
    );
  });
  show(timeline.table, true);
}

const NEGOTIATION_TONES = { COMPLETED: 'good', FAILED: 'bad', EXPIRED: 'bad', OPEN: 'warn' };

/** Why an attempt ended: completed, rejected (and whom the receiver suggested), or its failure. */
function attemptEnd(attempt) {
  if (attempt.completed_at) return [badge('completed', 'good'), ' ', timeElement(attempt.completed_at)];
  if (attempt.rejection) {
    const { reason, suggestions } = attempt.rejection;
    return [
      badge('rejected', 'warn'),
      ` ${reason}`,
      suggestions.length > 0 ? `; suggests ${suggestions.join(', ')}` : '',
    ];
  }
  if (attempt.failure) return [badge(attempt.failure.code, 'bad'), ` ${attempt.failure.message}`];
  return ['—'];
}

function attemptsTable(attempts) {
  const head = ['Receiver', 'Via', 'Receiver state', 'Requested', 'Ended'].map((text) =>
    h('th', { text, attrs: { scope: 'col' } }),
  );
  const rows = attempts.map((attempt) =>
    h(
      'tr',
      { attrs: { 'data-testid': 'attempt-row', 'data-receiver': attempt.receiver } },
      h('td', { className: 'mono', text: attempt.receiver, attrs: { 'data-col': 'receiver' } }),
      h('td', { text: attempt.via, attrs: { 'data-col': 'via' } }),
      h('td', { className: 'mono', text: attempt.receiver_state, attrs: { 'data-col': 'receiver_state' } }),
      h('td', { attrs: { 'data-col': 'requested_at' } }, timeElement(attempt.requested_at)),
      h('td', { className: 'wrap', attrs: { 'data-col': 'ended' } }, attemptEnd(attempt)),
    ),
  );
  return h(
    'div',
    { className: 'table-wrap' },
    h('table', { className: 'data attempts' }, h('thead', {}, h('tr', {}, head)), h('tbody', {}, rows)),
  );
}

function renderNegotiations(negotiations) {
  clear(timeline.negotiationList);
  for (const negotiation of negotiations) {
    timeline.negotiationList.append(
      h(
        'article',
        {
          className: 'negotiation',
          attrs: {
            'data-testid': 'negotiation',
            'data-negotiation-id': negotiation.negotiation_id,
            'data-outcome': negotiation.outcome,
          },
        },
        h(
          'div',
          { className: 'negotiation-head' },
          badge(negotiation.outcome, NEGOTIATION_TONES[negotiation.outcome] ?? 'info'),
          ' sender ',
          code(negotiation.sender_id),
          ' in ',
          h('span', { className: 'mono', text: negotiation.sender_state, attrs: { 'data-field': 'sender_state' } }),
          `, wants ${negotiation.terms?.desired_agent_type ?? '?'}`,
          negotiation.ended_at ? [', ended ', timeElement(negotiation.ended_at)] : null,
          negotiation.reason
            ? h('div', { className: 'wrap', text: negotiation.reason, attrs: { 'data-field': 'reason' } })
            : null,
        ),
        attemptsTable(negotiation.attempts ?? []),
      ),
    );
  }
  show(timeline.negotiations, negotiations.length > 0);
}

taskForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const taskId = taskInput.value.trim();
  if (!taskId) return;
  go(`#/task/${segment(taskId)}`, () => loadTimeline(taskId));
});

byTestId('task-refresh').addEventListener('click', () => {
  const taskId = taskInput.value.trim();
  if (taskId) void run(() => loadTimeline(taskId));
  else taskInput.focus();
});

// ---------------------------------------------------------------------------------------------

showTokenStatus();
if (!window.location.hash) window.history.replaceState(null, '', '#/dlq');
applyRoute();
if (!memoryToken) tokenInput.focus();
