import { filterForm, type FilterForm } from '../filter-form.js';

/** The list's filters as the hash and the API name them; `topic` and `agent` pick where to read. */
const TEXT_FILTERS = [
  ['topic', 'DLQ topic', 'baton.agent.x.inbox.dlq'],
  ['error_code', 'Error code', 'RETRIES_EXHAUSTED'],
  ['agent', 'Agent', 'triage_agent'],
  ['task_id', 'Task id', ''],
  ['handoff_type', 'Handoff type', 'ESCALATION'],
] as const;

/** The dead-letter list's filter form: fields named as the API's query parameters, filled from and read into the hash. */
export function deadLetterFilterForm(): FilterForm {
  return filterForm({
    prefix: 'filter',
    fields: TEXT_FILTERS.map(([name, label, placeholder]) => ({ name, label, placeholder })),
    headers: true,
    times: { from: 'From (local time)', to: 'To (local time)' },
  });
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
