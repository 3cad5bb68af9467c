import { h } from '../dom.js';

/** The list's filters as the hash and the API name them; `topic` and `agent` pick where to read. */
const TEXT_FILTERS = [
  ['topic', 'DLQ topic', 'baton.agent.x.inbox.dlq'],
  ['error_code', 'Error code', 'RETRIES_EXHAUSTED'],
  ['agent', 'Agent', 'triage_agent'],
  ['task_id', 'Task id', ''],
  ['handoff_type', 'Handoff type', 'ESCALATION'],
] as const;

/** The filter form: fields named as the API's query parameters, filled from and read into the hash. */
export function filterForm(): { form: HTMLFormElement; fill(filters: URLSearchParams): void; read(): URLSearchParams } {
  const inputs = TEXT_FILTERS.map(([name, label, placeholder]) => {
    const id = `filter-${name.replaceAll('_', '-')}`;
    const input = h('input', { attrs: { id, name, 'data-testid': id, placeholder, spellcheck: 'false' } });
    return {
      name,
      input,
      field: h('div', { className: 'field' }, h('label', { text: label, attrs: { for: id } }), input),
    };
  });
  const headers = h('textarea', {
    attrs: {
      id: 'filter-headers',
      name: 'header',
      rows: 1,
      'data-testid': 'filter-headers',
      placeholder: 'ce_source=ops_console',
      spellcheck: 'false',
    },
  });
  const time = (name: 'from' | 'to', label: string) =>
    h('input', {
      attrs: {
        id: `filter-${name}`,
        name,
        type: 'datetime-local',
        step: 1,
        'data-testid': `filter-${name}`,
        'aria-label': label,
      },
    });
  const from = time('from', 'From (local time)');
  const to = time('to', 'To (local time)');
  const form = h(
    'form',
    { className: 'filters', attrs: { 'data-testid': 'filter-form', autocomplete: 'off' } },
    h(
      'fieldset',
      {},
      h('legend', { text: 'Filters' }),
      inputs.map((entry) => entry.field),
      h(
        'div',
        { className: 'field wide' },
        h(
          'label',
          { attrs: { for: 'filter-headers' } },
          'Headers ',
          h('span', { className: 'subtle', text: '(name=value, one a line)' }),
        ),
        headers,
      ),
      h('div', { className: 'field' }, h('label', { text: 'From (local time)', attrs: { for: 'filter-from' } }), from),
      h('div', { className: 'field' }, h('label', { text: 'To (local time)', attrs: { for: 'filter-to' } }), to),
      h(
        'div',
        { className: 'actions' },
        h('button', { text: 'Apply', attrs: { type: 'submit', 'data-testid': 'filter-apply' } }),
        h('button', { text: 'Clear', className: 'secondary', attrs: { type: 'reset', 'data-testid': 'filter-clear' } }),
      ),
    ),
  );

  return {
    form,
    fill(filters) {
      for (const { name, input } of inputs) input.value = filters.get(name) ?? '';
      headers.value = filters.getAll('header').join('\n');
      from.value = localInput(filters.get('from'));
      to.value = localInput(filters.get('to'));
    },
    read() {
      const filters = new URLSearchParams();
      for (const { name, input } of inputs) if (input.value.trim()) filters.set(name, input.value.trim());
      for (const line of headers.value.split('\n')) if (line.trim()) filters.append('header', line.trim());
      // datetime-local is the viewer's local time; the API takes an instant.
      for (const [name, input] of [
        ['from', from],
        ['to', to],
      ] as const) {
        const instant = new Date(input.value);
        if (input.value) filters.set(name, Number.isNaN(instant.getTime()) ? input.value : instant.toISOString());
      }
      return filters;
    },
  };
}

/** An instant as a datetime-local value in the viewer's time zone. */
function localInput(iso: string | null): string {
  const date = new Date(iso ?? '');
  if (!iso || Number.isNaN(date.getTime())) return '';
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
}

/** The filters a bulk replay job takes (`filter` of POST /v1/replays): the list's, without where to read. */
export function jobFilter(filters: URLSearchParams): Record<string, string | string[]> {
  const filter: Record<string, string | string[]> = {};
  for (const name of ['error_code', 'task_id', 'handoff_type', 'from', 'to']) {
    const value = filters.get(name);
    if (value) filter[name] = value;
  }
  if (filters.getAll('header').length > 0) filter.header = filters.getAll('header');
  return filter;
}
