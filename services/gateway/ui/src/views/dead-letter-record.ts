import type { DeadLetterDetail, ReplayResult } from '@baton/gateway-api';
import { api, ApiError, segment } from '../api.js';
import { badge, busy, code, fillList, h, show, table, taskLink, tbody, timeElement } from '../dom.js';
import { Latest, run } from '../feedback.js';

/** How long the page looks for a replay's audit entry, which the gateway reads back from Kafka. */
const AUDIT_WAIT = { attempts: 20, firstMs: 250, stepMs: 100 };

/** The raw value's size, or why the gateway withheld it: the page never shows the bytes themselves. */
function rawValue(letter: DeadLetterDetail): string {
  if (letter.value_redacted !== undefined) {
    return `Withheld (${letter.value_redacted}): it may hold personal data in clear; the personal-data role sees it`;
  }
  return letter.value_base64 === null ? 'None' : `${atob(letter.value_base64).length} bytes`;
}

/**
 * One dead letter: where it was, its error, its headers, its decoded body and its replays, with a
 * replay form (a reason is required; it goes into the audit trail).
 */
export function deadLetterRecord(onClose: () => void) {
  const id = h('code', { attrs: { 'data-testid': 'detail-id' } });
  const summary = h('dl', { attrs: { 'data-testid': 'detail-summary' } });
  const error = h('dl', { attrs: { 'data-testid': 'detail-error' } });
  const reason = h('input', {
    attrs: { id: 'replay-reason', name: 'reason', required: true, maxlength: 1000, 'data-testid': 'replay-reason' },
  });
  const target = h('input', {
    attrs: { id: 'replay-target', name: 'target_topic', 'data-testid': 'replay-target', spellcheck: 'false' },
  });
  const newId = h('input', {
    attrs: { id: 'replay-new-id', name: 'new_message_id', type: 'checkbox', 'data-testid': 'replay-new-id' },
  });
  const submit = h('button', { text: 'Replay', attrs: { type: 'submit', 'data-testid': 'replay-submit' } });
  const form = h(
    'form',
    { attrs: { 'data-testid': 'replay-form', autocomplete: 'off' } },
    h(
      'div',
      { className: 'field wide' },
      h(
        'label',
        { attrs: { for: 'replay-reason' } },
        'Reason ',
        h('span', { className: 'subtle', text: '(required, kept in the audit trail)' }),
      ),
      reason,
    ),
    h(
      'div',
      { className: 'field' },
      h(
        'label',
        { attrs: { for: 'replay-target' } },
        'Target topic ',
        h('span', { className: 'subtle', text: '(optional)' }),
      ),
      target,
    ),
    h(
      'div',
      { className: 'field checkbox' },
      newId,
      h('label', { text: 'New message id', attrs: { for: 'replay-new-id' } }),
    ),
    h('div', { className: 'actions' }, submit),
  );
  const result = h('div', {
    className: 'result',
    attrs: { 'data-testid': 'replay-result', role: 'status', hidden: true },
  });
  const headers = table('detail-headers', "The record's headers", ['Name', 'Value'], 'data headers');
  const body = h('pre', { className: 'json', attrs: { 'data-testid': 'detail-body', tabindex: 0 } });
  const bodyError = h('p', { className: 'body-error', attrs: { 'data-testid': 'detail-body-error', hidden: true } });
  const replays = table('detail-replays', 'Replays of this dead letter', [
    'Time',
    'Actor',
    'Action',
    'Reason',
    'Target topic',
    'Message id',
    'Outcome',
  ]);
  const replaysEmpty = h('p', {
    className: 'empty',
    text: 'Never replayed.',
    attrs: { 'data-testid': 'detail-replays-empty', hidden: true },
  });
  const root = h(
    'section',
    { className: 'card detail', attrs: { 'data-testid': 'dlq-detail', 'aria-label': 'Dead letter', hidden: true } },
    h(
      'div',
      { className: 'card-head' },
      h('h3', {}, 'Dead letter ', id),
      h(
        'div',
        {},
        h('button', {
          text: 'Reload',
          className: 'secondary',
          attrs: { type: 'button', 'data-testid': 'detail-reload' },
          on: { click: () => void run(() => load(false)) },
        }),
        ' ',
        h('button', {
          text: 'Close',
          className: 'secondary',
          attrs: { type: 'button', 'data-testid': 'detail-close' },
          on: { click: onClose },
        }),
      ),
    ),
    h(
      'div',
      { className: 'detail-grid' },
      h('section', {}, h('h4', { text: 'Message' }), summary),
      h('section', {}, h('h4', { text: 'Error' }), error),
    ),
    h('section', { className: 'replay' }, h('h4', { text: 'Replay' }), form, result),
    h('section', {}, h('h4', { text: 'Headers' }), h('div', { className: 'table-wrap' }, headers)),
    h('section', {}, h('h4', { text: 'Body' }), bodyError, body),
    h('section', {}, h('h4', { text: 'Replays' }), h('div', { className: 'table-wrap' }, replays), replaysEmpty),
  );

  const latest = new Latest();
  let open: { topic: string; id: string } | undefined;
  const path = () => (open ? `v1/dlq/${segment(open.topic)}/messages/${segment(open.id)}` : '');

  async function load(fresh: boolean): Promise<void> {
    if (!open) return;
    const isLatest = latest.next();
    if (fresh) {
      form.reset();
      show(result, false);
    }
    busy(root, true);
    try {
      const letter = await api<DeadLetterDetail>('GET', path());
      if (!isLatest()) return;
      render(letter);
      show(root, true);
    } catch (failure) {
      if (isLatest()) show(root, false);
      throw failure;
    } finally {
      if (isLatest()) busy(root, false);
    }
  }

  function render(letter: DeadLetterDetail): void {
    id.textContent = letter.id;
    fillList(summary, [
      ['Topic', code(letter.topic), 'topic'],
      ['Partition / offset', `${letter.partition} / ${letter.offset}`, 'position'],
      ['Dead-lettered', timeElement(letter.timestamp), 'timestamp'],
      ['Task id', taskLink(letter.task_id), 'task_id'],
      ['Message id', letter.message_id ? code(letter.message_id) : '—', 'message_id'],
      ['Handoff type', letter.handoff_type ?? '—', 'handoff_type'],
      ['Replays', String(letter.replay_count), 'replay_count'],
      ['Raw value', rawValue(letter), 'value'],
    ]);
    const cause = letter.error;
    fillList(error, [
      ['Code', badge(cause.code, 'bad'), 'code'],
      ['Message', cause.message, 'message'],
      ['Stage', cause.stage, 'stage'],
      ['Attempts', String(cause.attempts), 'attempts'],
      ['Retriable', cause.retriable ? 'yes' : 'no', 'retriable'],
      ['Class', cause.class || '—', 'class'],
      ['Source topic', code(cause.source.topic), 'source_topic'],
      ['Source partition', String(cause.source.partition), 'source_partition'],
      ['Source offset', String(cause.source.offset), 'source_offset'],
      ['Consumer group', cause.consumer_group || '—', 'consumer_group'],
      ['Instance', cause.instance_id || '—', 'instance_id'],
      ['Time', timeElement(cause.time), 'time'],
    ]);
    target.placeholder = letter.source_topic;
    tbody(headers).replaceChildren(
      ...Object.entries(letter.headers).map(([name, value]) =>
        h(
          'tr',
          { attrs: { 'data-testid': 'header-row', 'data-name': name } },
          h('th', { className: 'mono', text: name, attrs: { scope: 'row' } }),
          h('td', { className: 'mono wrap', text: value }),
        ),
      ),
    );
    const decoded = letter.body !== null && letter.body !== undefined;
    body.textContent = decoded ? JSON.stringify(letter.body, null, 2) : '';
    bodyError.textContent = letter.body_error
      ? `The body does not decode: ${letter.body_error.code}: ${letter.body_error.message}`
      : 'The record has no value.';
    show(body, decoded);
    show(bodyError, !decoded);
    tbody(replays).replaceChildren(
      ...letter.replays.map((entry) =>
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
      ),
    );
    show(replaysEmpty, letter.replays.length === 0);
  }

  function showResult(state: 'ok' | 'failed', ...content: Node[]): void {
    result.dataset.state = state;
    result.replaceChildren(...content);
    show(result, true);
  }

  /** The audit entry is read back from Kafka: it shows up shortly after the answer. */
  async function followReplay(auditId: string): Promise<void> {
    const isLatest = latest.next();
    for (let attempt = 0; attempt < AUDIT_WAIT.attempts && isLatest(); attempt += 1) {
      await new Promise((resolve) => window.setTimeout(resolve, AUDIT_WAIT.firstMs + attempt * AUDIT_WAIT.stepMs));
      const letter = await api<DeadLetterDetail>('GET', path()).catch(() => undefined);
      if (!letter || !isLatest()) return;
      if (letter.replays.some((entry) => entry.audit_id === auditId)) return render(letter);
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const why = reason.value.trim();
    if (!why) return reason.focus();
    const request = {
      reason: why,
      new_message_id: newId.checked,
      ...(target.value.trim() ? { target_topic: target.value.trim() } : {}),
    };
    void run(async () => {
      submit.disabled = true;
      show(result, false);
      try {
        const done = await api<ReplayResult>('POST', `${path()}/replay`, request);
        const list = fillList(h('dl'), [
          ['Sent to', code(done.target_topic), 'target_topic'],
          ['Partition / offset', `${done.partition} / ${done.offset}`, 'position'],
          ['Message id', code(done.message_id), 'message_id'],
          ['Audit id', code(done.audit_id), 'audit_id'],
        ]);
        showResult('ok', h('p', { className: 'result-title', text: `Replayed dead letter ${done.id}.` }), list);
        void followReplay(done.audit_id);
      } catch (failure) {
        if (failure instanceof ApiError)
          showResult(
            'failed',
            h('p', { className: 'result-title' }, 'Replay refused: ', badge(failure.code, 'bad'), ' ', failure.message),
          );
        throw failure;
      } finally {
        submit.disabled = false;
      }
    });
  });

  return {
    root,
    /** Opens `record` (loads it again when it is the one open), or closes the panel. */
    show(record: { topic: string; id: string } | undefined): Promise<void> {
      const fresh = open?.topic !== record?.topic || open?.id !== record?.id;
      open = record;
      if (!record) {
        latest.cancel();
        show(root, false);
        return Promise.resolve();
      }
      return load(fresh);
    },
  };
}
