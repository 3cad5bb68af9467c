import { describe, expect, it } from 'vitest';
import { formatFields, formatTable, type Column } from './format.js';

interface Row {
  name: string;
  count: number;
  note?: string;
}

const columns: Column<Row>[] = [
  { header: 'NAME', value: (row) => row.name },
  { header: 'COUNT', value: (row) => row.count, align: 'right' },
  { header: 'NOTE', value: (row) => row.note },
];

describe('formatTable', () => {
  it('aligns columns two spaces apart, right-aligns numbers, shows absent values as - and trims line ends', () => {
    expect(
      formatTable(columns, [
        { name: 'router', count: 1, note: 'up' },
        { name: 'probe_agent', count: 12 },
      ]),
    ).toEqual(['NAME         COUNT  NOTE', 'router           1  up', 'probe_agent     12  -']);
  });

  it('prints only the heading for no rows, and keeps a cell on one line', () => {
    expect(formatTable(columns, [])).toEqual(['NAME  COUNT  NOTE']);
    expect(formatTable(columns, [{ name: 'a', count: 0, note: 'two\n  lines' }])).toEqual([
      'NAME  COUNT  NOTE',
      'a         0  two lines',
    ]);
  });
});

describe('formatFields', () => {
  it('aligns names and skips absent values', () => {
    expect(
      formatFields([
        ['message_id', 'm-1'],
        ['task_id', 't-1'],
        ['missing', undefined],
        ['partition', 2],
      ]),
    ).toEqual(['message_id  m-1', 'task_id     t-1', 'partition   2']);
  });
});
