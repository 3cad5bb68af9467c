/**
 * DOM helpers of the console page. Every piece of data reaches the page through textContent or
 * attribute values, never as HTML, so nothing an agent or a dead letter carries can run in it.
 */

export type Child = Node | string | number | null | undefined | false | Child[];

export interface Props {
  text?: string | number | null | undefined;
  className?: string | undefined;
  /** Set as attributes; undefined, null and false leave the attribute out, true sets it empty. */
  attrs?: Record<string, string | number | boolean | null | undefined>;
  on?: Partial<Record<keyof HTMLElementEventMap, (event: Event) => void>>;
}

/** A new element with `props` and `children` (strings are inserted as text). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.text !== undefined && props.text !== null) node.textContent = String(props.text);
  if (props.className) node.className = props.className;
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value !== undefined && value !== null && value !== false)
      node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const [type, listener] of Object.entries(props.on ?? {})) node.addEventListener(type, listener);
  append(node, children);
  return node;
}

function append(node: Node & ParentNode, children: Child[]): void {
  for (const child of children) {
    if (Array.isArray(child)) append(node, child);
    else if (child !== undefined && child !== null && child !== false)
      node.append(typeof child === 'number' ? String(child) : child);
  }
}

/** The element with `data-testid="<id>"`: the page's stable hooks, for the code as for tests. */
export function byTestId<T extends HTMLElement = HTMLElement>(id: string, root: ParentNode = document): T {
  const found = root.querySelector<T>(`[data-testid="${id}"]`);
  if (!found) throw new Error(`the page has no [data-testid="${id}"]`);
  return found;
}

export function show(node: HTMLElement, visible: boolean): void {
  node.hidden = !visible;
}

export function busy(node: HTMLElement, isBusy: boolean): void {
  node.setAttribute('aria-busy', String(isBusy));
}

/** An ISO instant shown in UTC to the millisecond, with the local time as its tooltip. */
export function timeElement(iso: string | null | undefined): HTMLElement {
  const date = new Date(iso ?? '');
  if (!iso || Number.isNaN(date.getTime())) return h('span', { text: iso ?? '—' });
  return h('time', {
    text: date.toISOString().replace('T', ' '),
    attrs: { datetime: date.toISOString(), title: date.toLocaleString() },
  });
}

export function code(text: string | null | undefined): HTMLElement {
  return h('code', { text: text ?? '—' });
}

export type Tone = 'good' | 'bad' | 'warn' | 'info';

export function toneOf(outcome: string | null | undefined): Tone {
  if (outcome === 'COMPLETED' || outcome === 'REPLAYED' || outcome === 'ok') return 'good';
  if (/DEAD|FAIL|REJECT|EXPIRED|ERROR|EXHAUSTED|INVALID|NO_ROUTE|FORBIDDEN|NOT_DELIVERED/.test(outcome ?? ''))
    return 'bad';
  if (/ESCALAT|PENDING|RETRY|WAIT/.test(outcome ?? '')) return 'warn';
  return 'info';
}

/** A badge whose colour says how an outcome or error went. */
export function badge(text: string, tone: Tone = toneOf(text)): HTMLElement {
  return h('span', { className: 'badge', text, attrs: { 'data-tone': tone } });
}

export function taskLink(taskId: string | null | undefined): HTMLElement {
  if (!taskId) return h('span', { className: 'subtle', text: '—' });
  return h('a', {
    text: taskId,
    className: 'mono',
    attrs: {
      href: `#/tasks/${encodeURIComponent(taskId)}`,
      'data-testid': 'task-link',
      title: `Show the timeline of task ${taskId}`,
    },
  });
}

/** Fills a <dl> with [term, description, field] rows; `field` names the value for tests. */
export function fillList(dl: HTMLElement, rows: [string, Child, string][]): HTMLElement {
  dl.replaceChildren();
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
  return dl;
}

/** A table with a caption for screen readers, `columns` as its head and an empty body to fill. */
export function table(testId: string, caption: string, columns: string[], className = 'data'): HTMLTableElement {
  return h(
    'table',
    { className, attrs: { 'data-testid': testId } },
    h('caption', { className: 'visually-hidden', text: caption }),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        columns.map((name) => h('th', { text: name, attrs: { scope: 'col' } })),
      ),
    ),
    h('tbody'),
  );
}

export function tbody(tableNode: HTMLTableElement): HTMLTableSectionElement {
  const body = tableNode.tBodies[0];
  if (!body) throw new Error('a table without a body');
  return body;
}
