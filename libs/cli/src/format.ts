/** One column of a table: its heading and how a row shows in it. */
export interface Column<T> {
  header: string;
  value(row: T): string | number | boolean | null | undefined;
  /** Numbers read best right-aligned. @default 'left' */
  align?: 'left' | 'right';
}

const GAP = '  ';

function cell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  return String(value).replace(/\s*\n\s*/g, ' ');
}

/**
 * Rows as an aligned plain-text table: a heading line, then one line per row, columns two spaces
 * apart, trailing spaces trimmed. Empty values show as `-`. Returns the lines without newlines.
 */
export function formatTable<T>(columns: readonly Column<T>[], rows: readonly T[]): string[] {
  const cells = rows.map((row) => columns.map((column) => cell(column.value(row))));
  const widths = columns.map((column, index) =>
    Math.max(column.header.length, ...cells.map((line) => (line[index] ?? '').length)),
  );
  const render = (line: readonly string[]): string =>
    line
      .map((text, index) => {
        const width = widths[index] ?? 0;
        return columns[index]?.align === 'right' ? text.padStart(width) : text.padEnd(width);
      })
      .join(GAP)
      .trimEnd();
  return [render(columns.map((column) => column.header)), ...cells.map(render)];
}

/** Named values as aligned `name  value` lines, skipping absent ones. */
export function formatFields(fields: readonly (readonly [string, unknown])[]): string[] {
  const shown = fields.filter(([, value]) => value !== undefined && value !== null && value !== '');
  const width = Math.max(0, ...shown.map(([name]) => name.length));
  return shown.map(([name, value]) =>
    `${name.padEnd(width)}${GAP}${typeof value === 'string' ? value : JSON.stringify(value)}`.trimEnd(),
  );
}
