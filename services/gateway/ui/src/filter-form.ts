import { h } from './dom.js';

/** One filter: named as the API's query parameter; a text field, or a choice of `choices`. */
export interface FilterField {
  name: string;
  label: string;
  placeholder?: string;
  /** A select of these values, beside "any". */
  choices?: readonly string[];
}

export interface FilterFormOptions {
  /** Prefixes the fields' ids and test ids: `<prefix>-<name>`, `<prefix>-apply`, `<prefix>-form`. */
  prefix: string;
  fields: readonly FilterField[];
  /** A `name=value` line per header, as `header` parameters. */
  headers?: boolean;
  /** The labels of the `from` and `to` instants. */
  times: { from: string; to: string };
}

export interface FilterForm {
  form: HTMLFormElement;
  /** Shows `filters` (from the hash) in the fields. */
  fill(filters: URLSearchParams): void;
  /** The fields as the API's query parameters. */
  read(): URLSearchParams;
}

/** A list's filter form: its fields filled from and read into the hash, named as the API names them. */
export function filterForm(options: FilterFormOptions): FilterForm {
  const { prefix } = options;
  const idOf = (name: string) => `${prefix}-${name.replaceAll('_', '-')}`;
  const inputs = options.fields.map(({ name, label, placeholder, choices }) => {
    const id = idOf(name);
    const input =
      choices === undefined
        ? h('input', { attrs: { id, name, 'data-testid': id, placeholder, spellcheck: 'false' } })
        : h(
            'select',
            { attrs: { id, name, 'data-testid': id } },
            h('option', { text: 'any', attrs: { value: '' } }),
            choices.map((choice) => h('option', { text: choice, attrs: { value: choice } })),
          );
    return {
      name,
      input,
      field: h('div', { className: 'field' }, h('label', { text: label, attrs: { for: id } }), input),
    };
  });
  const headers = options.headers
    ? h('textarea', {
        attrs: {
          id: idOf('headers'),
          name: 'header',
          rows: 1,
          'data-testid': idOf('headers'),
          placeholder: 'ce_source=ops_console',
          spellcheck: 'false',
        },
      })
    : undefined;
  const time = (name: 'from' | 'to') =>
    h('input', { attrs: { id: idOf(name), name, type: 'datetime-local', step: 1, 'data-testid': idOf(name) } });
  const from = time('from');
  const to = time('to');
  const form = h(
    'form',
    { className: 'filters', attrs: { 'data-testid': idOf('form'), autocomplete: 'off' } },
    h(
      'fieldset',
      {},
      h('legend', { text: 'Filters' }),
      inputs.map((entry) => entry.field),
      headers &&
        h(
          'div',
          { className: 'field wide' },
          h(
            'label',
            { attrs: { for: idOf('headers') } },
            'Headers ',
            h('span', { className: 'subtle', text: '(name=value, one a line)' }),
          ),
          headers,
        ),
      h('div', { className: 'field' }, h('label', { text: options.times.from, attrs: { for: idOf('from') } }), from),
      h('div', { className: 'field' }, h('label', { text: options.times.to, attrs: { for: idOf('to') } }), to),
      h(
        'div',
        { className: 'actions' },
        h('button', { text: 'Apply', attrs: { type: 'submit', 'data-testid': idOf('apply') } }),
        h('button', { text: 'Clear', className: 'secondary', attrs: { type: 'reset', 'data-testid': idOf('clear') } }),
      ),
    ),
  );

  return {
    form,
    fill(filters) {
      for (const { name, input } of inputs) input.value = filters.get(name) ?? '';
      if (headers) headers.value = filters.getAll('header').join('\n');
      from.value = localInput(filters.get('from'));
      to.value = localInput(filters.get('to'));
    },
    read() {
      const filters = new URLSearchParams();
      for (const { name, input } of inputs) if (input.value.trim()) filters.set(name, input.value.trim());
      if (headers) for (const line of headers.value.split('\n')) if (line.trim()) filters.append('header', line.trim());
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
