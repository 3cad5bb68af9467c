import pino, { type DestinationStream, type Logger } from 'pino';
import type { Handoff } from './handoff.js';

export type { Logger };

/** What stands in a log line for a customer's personal data. */
export const REDACTED = '[redacted]';

/**
 * The fields of a `customer_info` object a log line may show. Everything else in it (name,
 * contact_number, and whatever a newer protocol minor adds: email, phone, an address) is
 * personal data and is redacted.
 */
const LOGGABLE_CUSTOMER_FIELDS: ReadonlySet<string> = new Set(['user_id']);

/** Deeper than any log object Baton writes; bounds the walk on a cyclic object. */
const MAX_DEPTH = 24;

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function censorCustomer(value: unknown, depth: number): unknown {
  if (value === null || value === undefined) return value;
  if (typeof value !== 'object') return REDACTED;
  if (Array.isArray(value)) return value.map((item: unknown) => censorCustomer(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [key, LOGGABLE_CUSTOMER_FIELDS.has(key) ? field : REDACTED]),
  );
}

function redact(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, index) => {
      const next = redact(item, depth + 1);
      if (next !== item) (copy ??= [...value])[index] = next;
    });
    return copy ?? value;
  }
  // Errors, buffers, dates: their own serializers print them; handoffs are plain objects.
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, field] of Object.entries(value)) {
    const next = key === 'customer_info' ? censorCustomer(field, depth + 1) : redact(field, depth + 1);
    if (next !== field) (copy ??= { ...value })[key] = next;
  }
  return copy ?? value;
}

/**
 * A copy of `value` in which every `customer_info` object, at any depth, keeps only its user_id:
 * a handoff logged whole (`{ handoff }`, `{ entry: { task: ... } }`, a list of them) never shows a
 * customer's name or number. Branches without customer data are shared, not copied, and `value`
 * is never changed.
 */
export function redactPersonalData<T>(value: T): T {
  return redact(value, 0) as T;
}

const CUSTOMER_INFO_KEY = '"customer_info"';

/**
 * A serialized log line with `redactPersonalData` applied. Only lines that name customer_info are
 * parsed, so the others cost one substring search. A line that cannot be parsed is withheld.
 */
export function redactLogLine(line: string): string {
  if (!line.includes(CUSTOMER_INFO_KEY)) return line;
  const newline = line.endsWith('\n') ? '\n' : '';
  try {
    return JSON.stringify(redactPersonalData(JSON.parse(line) as unknown)) + newline;
  } catch {
    return JSON.stringify({ msg: 'log line withheld: it names customer_info and could not be redacted' }) + newline;
  }
}

/**
 * One JSON object per line (on stdout unless `destination` is given), with the service's name on
 * every line. Customers' personal data is redacted from the finished line, so it is caught wherever
 * it is: the logged object, child bindings, an error's fields. (pino's `redact` paths match one
 * level per wildcard, so they cannot cover a handoff at any depth, and many-wildcard paths cost
 * ~0.1 ms on every line; this costs a substring search on lines without customer_info.)
 */
export function createLogger(
  service: string,
  level = process.env.LOG_LEVEL ?? 'info',
  destination?: DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    hooks: { streamWrite: redactLogLine },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}

/**
 * A child logger for one message, so every line about it carries its task, message and
 * correlation ids (`correlation_id` null when the message has none).
 */
export function messageLogger(logger: Logger, handoff: Handoff): Logger {
  return logger.child({
    task_id: handoff.metadata.task_id,
    message_id: handoff.metadata.message_id,
    correlation_id: handoff.metadata.correlation_id ?? null,
  });
}
