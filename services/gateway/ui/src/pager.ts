import { h } from './dom.js';

/** The API's bounds of `limit`, for every list it pages. */
const PAGE_SIZE = { default: 50, min: 1, max: 500 };

export interface PagerOptions {
  /** Prefixes the controls' ids and test ids (`page-size`, `page-prev`, `page-next`); '' for none. */
  prefix: string;
  /** The test id of the line that counts the rows. */
  totalTestId: string;
  /** What the pages are of, for screen readers. */
  label: string;
  /** Asked when the page to show changes: load it with `limit()` and `cursor()`. */
  load(): void;
}

export interface Pager {
  root: HTMLElement;
  /** Rows per page, as chosen. */
  limit(): number;
  /** The cursor of the page to load; undefined for the first. */
  cursor(): string | undefined;
  /** Back to the first page, which the caller loads. */
  reset(): void;
  /** A page was shown: `rows` of `total` matching, and the next page's cursor, if any. */
  shown(rows: number, total: number, nextCursor: string | undefined): void;
}

/**
 * Paging by the API's cursors: the cursor of every page seen is kept, so Previous goes back
 * exactly and Next goes on from the last row shown, however the list changed meanwhile.
 */
export function pager(options: PagerOptions): Pager {
  const { prefix } = options;
  const total = h('span', { attrs: { 'data-testid': options.totalTestId, role: 'status' } });
  const pageSize = h('input', {
    attrs: {
      id: `${prefix}page-size`,
      type: 'number',
      min: PAGE_SIZE.min,
      max: PAGE_SIZE.max,
      value: PAGE_SIZE.default,
      'data-testid': `${prefix}page-size`,
    },
  });
  const button = (text: string, name: string) =>
    h('button', { text, className: 'secondary', attrs: { type: 'button', 'data-testid': `${prefix}${name}` } });
  const prev = button('Previous page', 'page-prev');
  const next = button('Next page', 'page-next');
  const root = h(
    'nav',
    { className: 'pager', attrs: { 'aria-label': options.label } },
    total,
    h('label', { text: 'Rows per page', attrs: { for: `${prefix}page-size` } }),
    pageSize,
    prev,
    next,
  );

  /** Cursors of the pages seen so far; the first page has none. */
  let cursors: (string | undefined)[] = [undefined];
  let page = 0;
  let nextCursor: string | undefined;
  const limit = () => Number(pageSize.value) || PAGE_SIZE.default;
  const reset = () => {
    cursors = [undefined];
    page = 0;
    nextCursor = undefined;
  };

  pageSize.addEventListener('change', () => {
    const wanted = Number.parseInt(pageSize.value, 10);
    pageSize.value = String(
      Number.isFinite(wanted) ? Math.min(PAGE_SIZE.max, Math.max(PAGE_SIZE.min, wanted)) : PAGE_SIZE.default,
    );
    reset();
    options.load();
  });
  next.addEventListener('click', () => {
    if (nextCursor === undefined) return;
    cursors[page + 1] = nextCursor;
    page += 1;
    options.load();
  });
  prev.addEventListener('click', () => {
    if (page === 0) return;
    page -= 1;
    options.load();
  });

  return {
    root,
    limit,
    cursor: () => cursors[page],
    reset,
    shown(rows, count, cursor) {
      nextCursor = cursor;
      const first = page * limit();
      total.textContent =
        rows === 0 ? `${count} matching` : `${first + 1}–${first + rows} of ${count} matching (page ${page + 1})`;
      prev.disabled = page === 0;
      next.disabled = nextCursor === undefined;
    },
  };
}
