/**
 * The task list's search at scale, in this process: a TaskBook with the gateway's default bounds
 * folds `tasks` tasks of four events each (a routing, a handoff, a second routing, an end: the
 * shape of the seed 000 chain), spread over agents, handoff types, categories and error codes;
 * then each query an operator makes is timed, the median and the slowest of its runs. No broker:
 * the search reads the gateway's memory only, and the fold is what the gateway's reader does to
 * each event.
 */
import type { HandoffOutcome, HandoffOutcomeKind } from '@baton/protocol';
import {
  DEFAULT_BOOK_MAX_EVENTS,
  DEFAULT_BOOK_MAX_EVENTS_PER_TASK,
  DEFAULT_INDEX_MAX_TASKS,
  TaskBook,
  type TaskQuery,
} from '@baton/task-tracking';

/** The tasks the bench folds: the issue's scale. */
export const TASK_SEARCH_TASKS = 100_000;

export interface TaskSearchRow {
  query: string;
  /** Tasks that matched (the answer's total). */
  matched: number;
  medianMs: number;
  maxMs: number;
}

export interface TaskSearchResult {
  tasks: number;
  events: number;
  /** Events folded per second, the list's rows kept up as the gateway keeps them. */
  foldPerS: number;
  /** Heap the book grew by, per task: its bounded timelines and the list's rows. */
  heapBytesPerTask: number;
  /** Heap a list row alone weighs: a book that keeps one task's timeline folded the same events. */
  rowBytes: number;
  rows: TaskSearchRow[];
}

const AGENTS = ['triage_agent', 'sales_agent', 'technical_support_agent', 'refunds_agent', 'network_expert'];
const TYPES = ['TASK_TRANSFER', 'ESCALATION', 'REQUEST_INFORMATION', 'STATUS_UPDATE'];
const CATEGORIES = ['BILLING', 'NETWORK', 'SALES', 'ACCOUNT'];
/** Runs of each query: the median is the figure, the slowest says how bad a GC pause made one. */
const RUNS = 21;
const START = Date.UTC(2026, 11, 1);

/** Task `n`'s four events: to its agent, handed to the next, routed again, and ended (a tenth dead-lettered, a twentieth left running). */
function taskEvents(n: number): HandoffOutcome[] {
  const task = `task-${n.toString(36).padStart(6, '0')}-${(n * 2_654_435_761) % 1_000_003}`;
  const first = AGENTS[n % AGENTS.length] as string;
  const second = AGENTS[(n + 1) % AGENTS.length] as string;
  const type = TYPES[n % TYPES.length] as string;
  const common = {
    task_id: task,
    handoff_type: type,
    issue_category: CATEGORIES[n % CATEGORIES.length] as string,
    correlation_id: `flow-${n}`,
    sender_id: 'customer_portal',
  };
  // A second apart per task, so a page's time filters cut the list somewhere.
  const time = (step: number) => new Date(START + n * 1_000 + step * 100).toISOString();
  const event = (step: number, agent: string, outcome: HandoffOutcomeKind, extra: Partial<HandoffOutcome> = {}) => ({
    ...common,
    event_id: `${task}.${step}`,
    time: time(step),
    message_id: `${task}.m${step >> 1}`,
    agent_id: agent,
    outcome,
    ...extra,
  });
  const end: HandoffOutcome =
    n % 20 === 0
      ? event(3, second, 'PROCESSED')
      : n % 10 === 0
        ? event(3, second, 'DEAD_LETTERED', { error_code: n % 30 === 0 ? 'MODEL_UNAVAILABLE' : 'RETRIES_EXHAUSTED' })
        : event(3, second, 'COMPLETED');
  return [
    event(0, 'router', 'ROUTED', { target: first }),
    event(1, first, 'HANDED_OFF', { target: second }),
    event(2, 'router', 'ROUTED', { target: second }),
    end,
  ];
}

/** The heap in use after a full collection: what the bench scripts give node (--expose-gc) makes it exact. */
function heapUsed(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined)
    throw new Error('the task search bench weighs the heap after a collection: run node with --expose-gc');
  gc();
  return process.memoryUsage().heapUsed;
}

/** Heap per task of a book that keeps a single timeline: what the list's rows weigh. */
function rowWeight(tasks: number): number {
  const before = heapUsed();
  const book = new TaskBook({ maxTasks: 1, list: { maxTasks: DEFAULT_INDEX_MAX_TASKS } });
  for (let n = 0; n < tasks; n += 1) for (const event of taskEvents(n)) book.add(event);
  const bytes = Math.round((heapUsed() - before) / tasks);
  // Kept alive until measured.
  return book.size > 0 ? bytes : Number.NaN;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

export function benchTaskSearch(tasks: number, progress: (text: string) => void): TaskSearchResult {
  const before = heapUsed();
  const book = new TaskBook({
    // The gateway's defaults: BATON_TIMELINE_TASKS, _EVENTS, _EVENTS_PER_TASK and BATON_TASK_LIST_TASKS.
    maxTasks: 100_000,
    maxEvents: DEFAULT_BOOK_MAX_EVENTS,
    maxEventsPerTask: DEFAULT_BOOK_MAX_EVENTS_PER_TASK,
    list: { maxTasks: DEFAULT_INDEX_MAX_TASKS },
  });
  let events = 0;
  const foldStart = performance.now();
  for (let n = 0; n < tasks; n += 1) {
    for (const event of taskEvents(n)) {
      book.add(event);
      events += 1;
    }
    if ((n + 1) % 25_000 === 0) progress(`task search: ${n + 1}/${tasks} tasks folded`);
  }
  const foldMs = performance.now() - foldStart;
  const heapBytesPerTask = Math.round((heapUsed() - before) / tasks);
  // The clock of the queries: an hour after the last task, so the running ones are stuck.
  const now = START + tasks * 1_000 + 3_600_000;
  const halfway = book.search({ limit: Math.floor(tasks / 2) }, now).nextCursor;
  const queries: [string, TaskQuery][] = [
    ['first page, no filter', { limit: 50 }],
    ['status STUCK', { limit: 50, statuses: ['STUCK'] }],
    ['status BREAK, error MODEL_UNAVAILABLE', { limit: 50, statuses: ['BREAK'], errorCode: 'MODEL_UNAVAILABLE' }],
    [
      'agent + handoff_type + issue_category',
      { limit: 50, agent: 'refunds_agent', handoffType: 'ESCALATION', issueCategory: 'NETWORK' },
    ],
    ['text over ids (a substring)', { limit: 50, text: '-4711' }],
    ['a time range of an hour', { limit: 50, from: START + 3_600_000, to: START + 7_200_000 }],
    ['a correlation_id', { limit: 50, correlationId: `flow-${Math.floor(tasks / 3)}` }],
    ['a page halfway down (cursor)', { limit: 50, ...(halfway === undefined ? {} : { cursor: halfway }) }],
  ];
  const rows = queries.map(([name, query]) => {
    const times: number[] = [];
    let matched = 0;
    for (let run = 0; run < RUNS; run += 1) {
      const started = performance.now();
      matched = book.search(query, now).total;
      times.push(performance.now() - started);
    }
    progress(`task search: ${name}: ${median(times).toFixed(1)} ms, ${matched} matched`);
    return { query: name, matched, medianMs: median(times), maxMs: Math.max(...times) };
  });
  const foldPerS = Math.round(events / (foldMs / 1_000));
  progress('task search: the weight of a list row alone');
  return { tasks, events, foldPerS, heapBytesPerTask, rowBytes: rowWeight(tasks), rows };
}

/** The report's lines. */
export function taskSearchLines(result: TaskSearchResult): string[] {
  return [
    `Task search: ${result.tasks} tasks (${result.events} events folded at ${result.foldPerS}/s; ${result.heapBytesPerTask} B of heap per task with the gateway's timelines, ${result.rowBytes} B a list row alone), each query ${RUNS} times, median and slowest:`,
    ...result.rows.map(
      (row) =>
        `  ${row.query.padEnd(44)} ${row.medianMs.toFixed(1).padStart(6)} ms  max ${row.maxMs.toFixed(1).padStart(6)} ms  ${row.matched} matched`,
    ),
  ];
}
