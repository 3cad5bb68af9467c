import { describe, expect, it } from 'vitest';
import { filterFromOptions, isEmptyFilter } from './dlq-filter.js';

describe('filterFromOptions', () => {
  it('names the filters as the gateway does and leaves out absent ones', () => {
    expect(
      filterFromOptions({
        'error-code': 'RETRIES_EXHAUSTED',
        'task-id': 't-1',
        'handoff-type': 'STATUS_UPDATE',
        header: ['ce_source=ops', 'x=a=b'],
        from: '2020-01-01T00:00:00Z',
        reason: 'not a filter',
      }),
    ).toEqual({
      error_code: 'RETRIES_EXHAUSTED',
      task_id: 't-1',
      handoff_type: 'STATUS_UPDATE',
      header: ['ce_source=ops', 'x=a=b'],
      from: '2020-01-01T00:00:00Z',
    });
    expect(isEmptyFilter(filterFromOptions({ all: true }))).toBe(true);
  });

  it('refuses a header without a name and a date that does not parse', () => {
    expect(() => filterFromOptions({ header: ['=x'] })).toThrow('--header must be name=value, not "=x"');
    expect(() => filterFromOptions({ header: ['novalue'] })).toThrow(/name=value/);
    expect(() => filterFromOptions({ to: 'yesterday' })).toThrow(/--to must be an ISO 8601 date-time/);
  });
});
