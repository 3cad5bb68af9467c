/**
 * The terminal's view of a service's JSON log lines: one readable line per record, prefixed by the
 * service's name, e.g. `sales-agent  WARN   retry scheduled  task_id=t-1 code=AGENT_TIMEOUT`. The
 * JSON lines themselves go to the service's log file unchanged.
 */

export const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
export type LevelName = (typeof LEVELS)[number];

/** pino's numeric levels, for a record that carries one instead of a name. */
const PINO_LEVELS: Record<number, LevelName> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

export interface ParsedLine {
  /** The JSON object the line holds; undefined for any other text (a stack trace, Node's warnings). */
  record?: Record<string, unknown>;
  /** The record's level, when it names one Baton knows. */
  level?: LevelName;
}

export function parseLogLine(line: string): ParsedLine {
  if (!line.startsWith('{')) return {};
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return {};
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const record = value as Record<string, unknown>;
  return { record, level: levelOf(record['level']) };
}

function levelOf(value: unknown): LevelName | undefined {
  if (typeof value === 'number') return PINO_LEVELS[value];
  return LEVELS.find((level) => level === value);
}

/** Whether `level` is `threshold` or more severe; a line of no known level counts as severe. */
export function isAtLeast(level: LevelName | undefined, threshold: LevelName): boolean {
  return level === undefined || LEVELS.indexOf(level) >= LEVELS.indexOf(threshold);
}

/** What every record has, or what the prefix already says: not repeated among the fields. */
const OMITTED = new Set(['level', 'time', 'service', 'msg', 'event', 'logger', 'source', 'hostname', 'pid']);
const MAX_VALUE_CHARS = 200;

/**
 * The readable form of `line`, a log line of the service `name`, its name padded to `width`: the
 * level, the message, then the other fields as key=value. A line that is not a JSON record is
 * shown as it is, after the name.
 */
export function readableLine(name: string, line: string, width = 0): string {
  const label = name.padEnd(width);
  const { record, level } = parseLogLine(line);
  if (record === undefined) return `${label}  ${line}`;
  const message = String(record['msg'] ?? record['event'] ?? '');
  const fields = Object.entries(record)
    .filter(([key, value]) => !OMITTED.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${fieldValue(value)}`);
  const head = `${label}  ${(level ?? String(record['level'] ?? '?')).toUpperCase().padEnd(5)}  ${message}`;
  return (fields.length === 0 ? head : `${head}  ${fields.join(' ')}`).replace(/[\r\n]+/g, ' ');
}

function fieldValue(value: unknown): string {
  if (typeof value === 'string') return quoted(value);
  if (typeof value !== 'object' || value === null) return String(value);
  // A serialised error: its type and message, without the stack.
  const error = value as { type?: unknown; message?: unknown };
  if (typeof error.message === 'string') {
    return quoted(typeof error.type === 'string' ? `${error.type}: ${error.message}` : error.message);
  }
  return shortened(JSON.stringify(value));
}

function quoted(text: string): string {
  const short = shortened(text);
  return /[\s"=]/.test(short) || short === '' ? JSON.stringify(short) : short;
}

function shortened(text: string): string {
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}
