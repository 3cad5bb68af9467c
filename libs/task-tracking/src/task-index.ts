import type { StuckReason, TaskListRow, TaskListStatus } from '@baton/gateway-api';
import type { Immutable, LifecycleMessage, TaskEvent } from '@baton/protocol';
import { StringPool } from './string-pool.js';
import { timeOf } from './task-events.js';
import { TASK_STATUSES, type TaskStatus } from './task-status.js';

/** The status filter's value for tasks EXECUTING past their deadline or without an event for too long. */
export const STUCK: TaskListStatus = 'STUCK';
export const TASK_LIST_STATUSES: readonly TaskListStatus[] = [...TASK_STATUSES, STUCK];

/** The gateway's default for how long an EXECUTING task may go without an event before it is stuck. */
export const DEFAULT_STUCK_AFTER_MS = 5 * 60_000;

/** The services' default bound on the tasks a list holds: about 50 MiB of heap at 500 bytes a row (`npm run bench:tasks`). */
export const DEFAULT_INDEX_MAX_TASKS = 100_000;

/** Message ids kept per task for the search over ids: a task's first handoffs, where flows start. */
const MAX_IDS_PER_TASK = 32;

/** What a search asks for; every filter given must hold. */
export interface TaskQuery {
  /** A task in any of these matches; STUCK matches a stuck EXECUTING task. */
  statuses?: readonly TaskListStatus[];
  /** An agent that sent, received, held or reported on the task. */
  agent?: string;
  handoffType?: string;
  issueCategory?: string;
  errorCode?: string;
  /** Epoch ms: the task's newest event at or after `from`, its first at or before `to`. */
  from?: number;
  to?: number;
  /** A substring of the task's id, a parent's, a correlation_id or a message_id. */
  text?: string;
  /** A correlation_id the task's events carry, or a message_id of the task (the one that started a flow is its id). */
  correlationId?: string;
  /** Overrides the index's stuckAfterMs. */
  stuckAfterMs?: number;
  limit: number;
  /** A previous answer's nextCursor: the page after it. */
  cursor?: string;
}

export interface TaskSearchResult {
  tasks: TaskListRow[];
  total: number;
  nextCursor?: string;
}

export interface TaskIndexOptions {
  /** Tasks kept; past it the oldest-created go, a hundredth of the bound at a time. Unbounded by default. */
  maxTasks?: number;
  /** How long an EXECUTING task may go without an event before it is stuck; DEFAULT_STUCK_AFTER_MS by default. */
  stuckAfterMs?: number;
}

/**
 * Names a row lists (handoff types, categories, agents, error codes) as one string, `\n` before and
 * after each: `\nrouter\ntriage_agent\n`. The same combinations recur from task to task, so they
 * are pooled and a row holds a pointer where four arrays weighed about 200 bytes; a filter is one
 * `includes` of `\n<name>\n`.
 */
type NameSet = string;
const NO_NAMES: NameSet = '\n';

/** One task's row, every field set from the start so that all rows share one shape. Times are epoch ms. */
interface IndexRow {
  taskId: string;
  createdMs: number;
  updatedMs: number;
  status: TaskStatus;
  owner: string | null;
  handoffTypes: NameSet;
  categories: NameSet;
  agents: NameSet;
  errorCodes: NameSet;
  /**
   * What a search over ids reads, one string so that a search is one `includes` a row:
   * `\t<task id>\t<parents, tab-separated>\t\n<correlation and message ids, each followed by a newline>`.
   * A correlation id is found whole between newlines; a substring anywhere but across a separator.
   */
  searchText: string;
  /** Correlation and message ids in searchText, up to MAX_IDS_PER_TASK. */
  idCount: number;
  correlationId: string | undefined;
  parents: readonly string[];
  /** The newest outcome event: its outcome, agent, error code and time. */
  lastOutcome: string | undefined;
  lastAgent: string | undefined;
  lastError: string | undefined;
  lastMs: number;
  events: number;
  expiresMs: number | undefined;
}

/** What the book knows of a task after folding an event: the index keeps its own copy of these. */
export interface FoldedTask {
  taskId: string;
  status: TaskStatus;
  owner: string | null;
  createdAt: string;
  parents: readonly string[];
}

/**
 * The task list: one small row per task, from every record of the events topic, kept in the order
 * tasks were created so that a page is a walk from a position and a cursor (the last row's creation
 * time and id) stays correct while events arrive: a new task lands before the first page, an
 * updated one keeps its place. A search reads every row (100,000 in a few milliseconds; see
 * `npm run bench`), so any combination of filters costs the same and needs no index of its own.
 *
 * It outlives the book's timelines: a row weighs about 500 bytes, a quarter of a task of four
 * events with its timeline, so a gateway lists more tasks than it can show the steps of.
 */
export class TaskIndex {
  /** Rows by (createdMs, taskId), oldest first. */
  private readonly order: IndexRow[] = [];
  private readonly rows = new Map<string, IndexRow>();
  private readonly strings = new StringPool();
  /** The NameSets: longer than single names, as many combinations. */
  private readonly nameSets = new StringPool(4_096, 1_024);
  private readonly maxTasks: number;
  private readonly stuckAfterMs: number;

  constructor(options: TaskIndexOptions = {}) {
    this.maxTasks = options.maxTasks ?? Number.POSITIVE_INFINITY;
    this.stuckAfterMs = options.stuckAfterMs ?? DEFAULT_STUCK_AFTER_MS;
  }

  /** Takes in one folded record of the events topic and the task's state after it. */
  record(event: TaskEvent, task: FoldedTask): void {
    const row = this.rows.get(task.taskId) ?? this.insert(task);
    const timeMs = Date.parse(timeOf(event));
    // A writer's clock may be behind another's: the newest time seen is the task's.
    if (timeMs > row.updatedMs) row.updatedMs = timeMs;
    row.status = task.status;
    row.owner = this.strings.intern(task.owner ?? undefined) ?? null;
    if (task.parents.length !== row.parents.length) {
      row.parents = [...task.parents];
      this.refreshSearchText(row);
    }
    row.events += 1;
    if (event.kind === 'outcome') {
      const outcome = event.value;
      row.handoffTypes = this.add(row.handoffTypes, outcome.handoff_type);
      row.categories = this.add(row.categories, outcome.issue_category);
      row.agents = this.addAgents(this.add(row.agents, outcome.agent_id), outcome.sender_id);
      row.agents = this.addAgents(this.addAgents(row.agents, outcome.recipient_id), outcome.target);
      row.errorCodes = this.add(row.errorCodes, outcome.error_code);
      this.addId(row, outcome.correlation_id);
      this.addId(row, outcome.message_id);
      row.lastOutcome = this.strings.intern(outcome.outcome);
      row.lastAgent = this.strings.intern(outcome.agent_id);
      row.lastError = this.strings.intern(outcome.error_code);
      row.lastMs = Number.isNaN(timeMs) ? row.updatedMs : timeMs;
      // The deadline is the routed handoff's, until the agent it went to reports on it.
      this.setDeadline(row, outcome.outcome === 'ROUTED' ? outcome.expiration_time : undefined);
    } else if (event.kind === 'lifecycle') {
      const message = event.value;
      row.agents = this.add(this.add(row.agents, message.sender_id), message.receiver_id);
      row.errorCodes = this.add(row.errorCodes, errorCodeOf(message));
      this.addId(row, message.correlation_id);
      this.addId(row, message.message_id);
      this.setDeadline(row, undefined);
    } else {
      row.agents = this.add(row.agents, event.value.sender_id);
      this.addId(row, event.value.request_message_id);
      this.setDeadline(row, undefined);
    }
  }

  /** A page of the tasks that match, newest first, `now` deciding which are stuck. */
  search(query: TaskQuery, now: number = Date.now()): TaskSearchResult {
    const matches = this.matcher(query, now);
    const stuckAfterMs = query.stuckAfterMs ?? this.stuckAfterMs;
    const start = query.cursor === undefined ? this.order.length : this.positionOf(query.cursor);
    const tasks: TaskListRow[] = [];
    let total = 0;
    let more = false;
    // Every row is read, for the total; the page is the first `limit` matches below the cursor.
    for (let index = this.order.length - 1; index >= 0; index -= 1) {
      const row = this.order[index] as IndexRow;
      if (!matches(row)) continue;
      total += 1;
      if (index >= start) continue;
      if (tasks.length < query.limit) tasks.push(this.rowAnswer(row, now, stuckAfterMs));
      else more = true;
    }
    const last = tasks.at(-1);
    return more && last !== undefined ? { tasks, total, nextCursor: cursorOf(last) } : { tasks, total };
  }

  /** Tasks listed now. */
  get size(): number {
    return this.rows.size;
  }

  /** How many tasks are stuck as of `now`, by the agent(s) holding them, most first. */
  stuckByOwner(now: number = Date.now()): { owner: string; count: number }[] {
    const counts = new Map<string, number>();
    for (const row of this.order) {
      if (stuckReason(row, now, this.stuckAfterMs) === undefined) continue;
      const owner = row.owner ?? '';
      counts.set(owner, (counts.get(owner) ?? 0) + 1);
    }
    return [...counts]
      .map(([owner, count]) => ({ owner, count }))
      .sort((a, b) => b.count - a.count || (a.owner < b.owner ? -1 : 1));
  }

  private matcher(query: TaskQuery, now: number): (row: IndexRow) => boolean {
    const statuses = query.statuses === undefined || query.statuses.length === 0 ? undefined : new Set(query.statuses);
    const stuckAfterMs = query.stuckAfterMs ?? this.stuckAfterMs;
    const { from, to, correlationId } = query;
    const named = (name: string | undefined) => (name === undefined ? undefined : `\n${name}\n`);
    const agent = named(query.agent);
    const handoffType = named(query.handoffType);
    const issueCategory = named(query.issueCategory);
    const errorCode = named(query.errorCode);
    // A separator in the text would match across ids: no id holds one.
    const text = query.text === undefined || !/[\t\n]/.test(query.text) ? query.text : '\u0000';
    const wholeId = correlationId === undefined ? undefined : `\n${correlationId}\n`;
    return (row) =>
      (statuses === undefined ||
        statuses.has(row.status) ||
        (statuses.has(STUCK) && stuckReason(row, now, stuckAfterMs) !== undefined)) &&
      (agent === undefined || row.agents.includes(agent)) &&
      (handoffType === undefined || row.handoffTypes.includes(handoffType)) &&
      (issueCategory === undefined || row.categories.includes(issueCategory)) &&
      (errorCode === undefined || row.errorCodes.includes(errorCode)) &&
      (from === undefined || row.updatedMs >= from) &&
      (to === undefined || row.createdMs <= to) &&
      (wholeId === undefined || row.searchText.includes(wholeId)) &&
      (text === undefined || row.searchText.includes(text));
  }

  private rowAnswer(row: IndexRow, now: number, stuckAfterMs: number): TaskListRow {
    const stuck = stuckReason(row, now, stuckAfterMs);
    return {
      task_id: row.taskId,
      status: row.status,
      ...(stuck === undefined ? {} : { stuck }),
      owner: row.owner,
      handoff_types: namesOf(row.handoffTypes),
      issue_categories: namesOf(row.categories),
      agents: namesOf(row.agents),
      error_codes: namesOf(row.errorCodes),
      ...(row.correlationId === undefined ? {} : { correlation_id: row.correlationId }),
      parent_task_ids: [...row.parents],
      ...(row.lastOutcome === undefined || row.lastAgent === undefined
        ? {}
        : {
            last_outcome: {
              outcome: row.lastOutcome,
              agent_id: row.lastAgent,
              time: isoOf(row.lastMs),
              ...(row.lastError === undefined ? {} : { error_code: row.lastError }),
            },
          }),
      events: row.events,
      created_at: isoOf(row.createdMs),
      updated_at: isoOf(row.updatedMs),
      ...(row.expiresMs === undefined ? {} : { expires_at: isoOf(row.expiresMs) }),
    };
  }

  private insert(task: FoldedTask): IndexRow {
    const createdMs = Date.parse(task.createdAt);
    const row: IndexRow = {
      taskId: task.taskId,
      createdMs: Number.isNaN(createdMs) ? 0 : createdMs,
      updatedMs: Number.isNaN(createdMs) ? 0 : createdMs,
      status: task.status,
      owner: null,
      handoffTypes: NO_NAMES,
      categories: NO_NAMES,
      agents: NO_NAMES,
      errorCodes: NO_NAMES,
      searchText: '',
      idCount: 0,
      correlationId: undefined,
      parents: [],
      lastOutcome: undefined,
      lastAgent: undefined,
      lastError: undefined,
      lastMs: 0,
      events: 0,
      expiresMs: undefined,
    };
    this.refreshSearchText(row);
    this.rows.set(row.taskId, row);
    // Tasks mostly arrive in the order they were created: the search from the back is short.
    let at = this.order.length;
    while (at > 0 && compareRows(this.order[at - 1] as IndexRow, row) > 0) at -= 1;
    if (at === this.order.length) this.order.push(row);
    else this.order.splice(at, 0, row);
    if (this.order.length > this.maxTasks) this.evictOldest();
    return row;
  }

  /** Forgets the oldest-created hundredth of the bound at once: one move of the array, not one per new task. */
  private evictOldest(): void {
    const excess = this.order.length - this.maxTasks + Math.max(0, Math.floor(this.maxTasks / 100) - 1);
    for (const row of this.order.splice(0, excess)) this.rows.delete(row.taskId);
  }

  /** The position of the cursor's row (or where it was): a page walks down from just below it. */
  private positionOf(cursor: string): number {
    const key = parseCursor(cursor);
    let low = 0;
    let high = this.order.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareKey(this.order[middle] as IndexRow, key.createdMs, key.taskId) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private setDeadline(row: IndexRow, expiresAt: string | undefined): void {
    const ms = expiresAt === undefined ? Number.NaN : Date.parse(expiresAt);
    row.expiresMs = Number.isNaN(ms) ? undefined : ms;
  }

  /** `names` with `name` at its end, unless it holds it already (or it is empty, or holds a newline). */
  private add(names: NameSet, name: string | undefined): NameSet {
    if (name === undefined || name === '' || name.includes('\n') || names.includes(`\n${name}\n`)) return names;
    return this.nameSets.intern(`${names}${name}\n`);
  }

  /** Agents named comma-separated, as recipients and targets are. */
  private addAgents(agents: NameSet, names: string | undefined): NameSet {
    if (names === undefined || !names.includes(',')) return this.add(agents, names);
    return names.split(',').reduce((set, name) => this.add(set, name.trim()), agents);
  }

  private addId(row: IndexRow, id: string | undefined): void {
    if (id === undefined || id === '' || row.idCount >= MAX_IDS_PER_TASK || row.searchText.includes(`\n${id}\n`))
      return;
    row.searchText += `${id}\n`;
    row.idCount += 1;
    row.correlationId ??= id;
  }

  /** searchText with the row's parents, its ids kept. */
  private refreshSearchText(row: IndexRow): void {
    const ids = row.searchText.slice(row.searchText.indexOf('\n'));
    row.searchText = `\t${row.taskId}\t${row.parents.join('\t')}\t${ids === '' ? '\n' : ids}`;
  }
}

function namesOf(names: NameSet): string[] {
  return names === NO_NAMES ? [] : names.slice(1, -1).split('\n');
}

function isoOf(ms: number): string {
  return new Date(ms).toISOString();
}

function stuckReason(row: IndexRow, now: number, stuckAfterMs: number): StuckReason | undefined {
  if (row.status !== 'EXECUTING') return undefined;
  if (row.expiresMs !== undefined && row.expiresMs < now) return 'deadline';
  return now - row.updatedMs >= stuckAfterMs ? 'silent' : undefined;
}

function compareRows(a: IndexRow, b: IndexRow): number {
  return compareKey(a, b.createdMs, b.taskId);
}

function compareKey(row: IndexRow, createdMs: number, taskId: string): number {
  if (row.createdMs !== createdMs) return row.createdMs - createdMs;
  return row.taskId < taskId ? -1 : row.taskId > taskId ? 1 : 0;
}

/** A row's place as a cursor: its creation time and id, opaque to clients. */
function cursorOf(row: TaskListRow): string {
  return Buffer.from(JSON.stringify([Date.parse(row.created_at), row.task_id])).toString('base64url');
}

/** Thrown for a cursor no answer gave. */
export class InvalidCursorError extends Error {}

function parseCursor(cursor: string): { createdMs: number; taskId: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError('the cursor is not one a task list gave');
  }
  if (!Array.isArray(parsed) || typeof parsed[0] !== 'number' || typeof parsed[1] !== 'string') {
    throw new InvalidCursorError('the cursor is not one a task list gave');
  }
  return { createdMs: parsed[0], taskId: parsed[1] };
}

function errorCodeOf(message: Immutable<LifecycleMessage>): string | undefined {
  return message.message_type === 'ErrorNotification' ? message.payload.error_code : undefined;
}
