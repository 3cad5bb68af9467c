import { BatonError } from '@baton/errors';
import { DLQ_HEADERS, type ConsumedRecord } from '@baton/kafka';

/** What an operator narrows dead letters by; every condition given must hold. */
export interface DeadLetterFilter {
  error_code?: string;
  task_id?: string;
  handoff_type?: string;
  /** Header name to the value it must have. */
  headers?: Record<string, string>;
  /** ISO 8601: dead-lettered at or after. */
  from?: string;
  /** ISO 8601: dead-lettered before. */
  to?: string;
}

/** The query parameters (or bulk replay `filter`) that make a filter, as the routes' schemas name them. */
export interface FilterParameters {
  error_code?: string;
  task_id?: string;
  handoff_type?: string;
  header?: string | string[];
  from?: string;
  to?: string;
}

function instant(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (Number.isNaN(Date.parse(value))) {
    throw new BatonError('REQUEST_INVALID', `${name} must be an ISO 8601 date-time, not "${value}"`, {
      path: `/query/${name}`,
    });
  }
  return new Date(value).toISOString();
}

export function parseFilter(parameters: FilterParameters): DeadLetterFilter {
  const headers: Record<string, string> = {};
  for (const pair of [parameters.header ?? []].flat()) {
    const split = pair.indexOf('=');
    if (split <= 0) {
      throw new BatonError('REQUEST_INVALID', `header filter must be name=value, not "${pair}"`, {
        path: '/query/header',
      });
    }
    headers[pair.slice(0, split)] = pair.slice(split + 1);
  }
  const from = instant(parameters.from, 'from');
  const to = instant(parameters.to, 'to');
  return {
    ...(parameters.error_code ? { error_code: parameters.error_code } : {}),
    ...(parameters.task_id ? { task_id: parameters.task_id } : {}),
    ...(parameters.handoff_type ? { handoff_type: parameters.handoff_type } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
}

/** When the record was dead-lettered: its header, or the record's own timestamp. */
export function deadLetteredAt(record: ConsumedRecord): number {
  const stated = Date.parse(record.headers[DLQ_HEADERS.time] ?? '');
  return Number.isNaN(stated) ? Number(record.timestamp) : stated;
}

export function matchesFilter(record: ConsumedRecord, filter: DeadLetterFilter): boolean {
  const { headers } = record;
  if (filter.error_code !== undefined && headers[DLQ_HEADERS.code] !== filter.error_code) return false;
  if (filter.task_id !== undefined && record.key !== filter.task_id) return false;
  if (filter.handoff_type !== undefined && headers.ce_type !== filter.handoff_type) return false;
  for (const [name, value] of Object.entries(filter.headers ?? {})) {
    if (headers[name] !== value) return false;
  }
  const at = deadLetteredAt(record);
  if (filter.from !== undefined && at < Date.parse(filter.from)) return false;
  if (filter.to !== undefined && at >= Date.parse(filter.to)) return false;
  return true;
}
