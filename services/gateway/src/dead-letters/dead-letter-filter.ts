import { BatonError } from '@baton/errors';
import type { DeadLetterFilterParameters } from '@baton/gateway-api';
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

function instant(value: string | undefined, name: string, where: string): string | undefined {
  if (value === undefined) return undefined;
  if (Number.isNaN(Date.parse(value))) {
    throw new BatonError('REQUEST_INVALID', `${name} must be an ISO 8601 date-time, not "${value}"`, {
      path: `${where}/${name}`,
    });
  }
  return new Date(value).toISOString();
}

/** `where` is the filter's place in the request, for error paths: the query, or a body's `filter`. */
export function parseFilter(parameters: DeadLetterFilterParameters, where = '/query'): DeadLetterFilter {
  const headers: Record<string, string> = {};
  for (const pair of [parameters.header ?? []].flat()) {
    const split = pair.indexOf('=');
    if (split <= 0) {
      throw new BatonError('REQUEST_INVALID', `header filter must be name=value, not "${pair}"`, {
        path: `${where}/header`,
      });
    }
    headers[pair.slice(0, split)] = pair.slice(split + 1);
  }
  const from = instant(parameters.from, 'from', where);
  const to = instant(parameters.to, 'to', where);
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

const AGENT_DLQ = /\.agent\.([^.]+)\.(?:inbox|control)\.dlq$/;
const ROUTER_DLQ = /\.handoffs\.inbound\.dlq$/;

/** The agent whose consumer dead-lettered into `dlqTopic`: `router` for the inbound topic's. */
export function agentOfDeadLetterTopic(dlqTopic: string): string | undefined {
  if (ROUTER_DLQ.test(dlqTopic)) return 'router';
  return AGENT_DLQ.exec(dlqTopic)?.[1];
}
