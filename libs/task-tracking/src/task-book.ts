import type { HandoffOutcome, HandoffOutcomeKind, Immutable } from '@baton/protocol';

/** Seed 004's TaskStatus, in its order (CREATE 0 ... FINISH 4). */
export const TASK_STATUSES = ['CREATE', 'EXECUTING', 'WAITING', 'BREAK', 'FINISH'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export type OutcomeEvent = Immutable<HandoffOutcome>;

/** One change of a task's status: the event that caused it and that event's time (never the clock). */
export interface StatusChange {
  status: TaskStatus;
  at: string;
  event_id: string;
}

/** What the fold knows of one task. */
export interface TaskView {
  task_id: string;
  status: TaskStatus;
  /** The agent (or agents, comma-separated, as the event's target names them) holding the task; null when none does. */
  owner: string | null;
  /** Every parent the task's events name, in the order first named. */
  parent_task_ids: string[];
  /** The tasks whose events name this one as a parent, sorted by task_id. */
  children: string[];
  /** Every outcome event of the task, once each, in topic order. */
  timeline: OutcomeEvent[];
  status_history: StatusChange[];
  counts: { events: number; outcomes: Partial<Record<HandoffOutcomeKind, number>> };
  created_at: string;
  updated_at: string;
}

/** One row of a task list. */
export type TaskSummary = Omit<TaskView, 'timeline' | 'status_history'>;

/** What an outcome does to a task: its status and its owner. */
export interface Transition {
  status: TaskStatus | 'unchanged';
  owner: 'target' | 'agent' | 'none' | 'unchanged';
}

/**
 * The status table: outcome → status and owner. ROUTED, HANDED_OFF and ESCALATED put the task with
 * the agent(s) the handoff went to; PROCESSED leaves it with the agent that processed it (it goes on
 * working on it, e.g. the planner between its children's reports); INFORMATION_REQUESTED leaves it
 * with the asking agent, which waits for the answer; REPLIED changes nothing (a reply to the user
 * says nothing about who holds the task); DEAD_LETTERED and COMPLETED leave nobody holding it.
 * One exception, in `transitionOf`: while a task is WAITING, the routing of the question itself (a
 * REQUEST_INFORMATION handoff ROUTED) keeps it WAITING with the asking agent.
 */
export const STATUS_TABLE: Readonly<Record<HandoffOutcomeKind, Transition>> = {
  ROUTED: { status: 'EXECUTING', owner: 'target' },
  HANDED_OFF: { status: 'EXECUTING', owner: 'target' },
  ESCALATED: { status: 'EXECUTING', owner: 'target' },
  PROCESSED: { status: 'EXECUTING', owner: 'agent' },
  INFORMATION_REQUESTED: { status: 'WAITING', owner: 'agent' },
  REPLIED: { status: 'unchanged', owner: 'unchanged' },
  DEAD_LETTERED: { status: 'BREAK', owner: 'none' },
  COMPLETED: { status: 'FINISH', owner: 'none' },
};

/** The transition of `event` for a task currently in `status`. */
export function transitionOf(event: OutcomeEvent, status: TaskStatus): Transition {
  if (status === 'WAITING' && event.outcome === 'ROUTED' && event.handoff_type === 'REQUEST_INFORMATION') {
    return { status: 'unchanged', owner: 'unchanged' };
  }
  return STATUS_TABLE[event.outcome];
}

interface TaskRecord {
  task_id: string;
  status: TaskStatus;
  owner: string | null;
  parents: string[];
  children: Set<string>;
  eventIds: Set<string>;
  timeline: OutcomeEvent[];
  history: StatusChange[];
  outcomes: Partial<Record<HandoffOutcomeKind, number>>;
}

export interface TaskBookOptions {
  /**
   * Tasks kept (a parent named by a child counts too); past it the task updated least recently is
   * forgotten. Unbounded by default. With a bound, what is forgotten depends on how the reader
   * interleaved partitions, so only an unbounded book is a pure function of each task's events.
   */
  maxTasks?: number;
}

/**
 * The fold of the events topic into tasks. Each task's state depends only on its events and their
 * order (one partition per task, so topic order), never on the clock: a book rebuilt from the topic
 * equals one that never stopped. An event seen again (same event_id) is ignored. A parent's
 * children are known even when the children's events are read before the parent's.
 */
export class TaskBook {
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly maxTasks: number;

  constructor(options: TaskBookOptions = {}) {
    this.maxTasks = options.maxTasks ?? Number.POSITIVE_INFINITY;
  }

  /** Folds one event in; false when it had been folded already. */
  add(event: OutcomeEvent): boolean {
    const existing = this.tasks.get(event.task_id);
    if (existing?.eventIds.has(event.event_id)) return false;
    const task = existing ?? this.newRecord(event.task_id);
    if (task.timeline.length === 0) {
      task.history.push({ status: 'CREATE', at: event.time, event_id: event.event_id });
    }
    task.eventIds.add(event.event_id);
    task.timeline.push(event);
    task.outcomes[event.outcome] = (task.outcomes[event.outcome] ?? 0) + 1;
    const transition = transitionOf(event, task.status);
    if (transition.status !== 'unchanged' && transition.status !== task.status) {
      task.status = transition.status;
      task.history.push({ status: transition.status, at: event.time, event_id: event.event_id });
    }
    if (transition.owner === 'target') task.owner = event.target ?? null;
    else if (transition.owner === 'agent') task.owner = event.agent_id;
    else if (transition.owner === 'none') task.owner = null;
    this.touch(task);
    for (const parentId of event.parent_task_ids ?? []) {
      if (parentId === event.task_id) continue;
      if (!task.parents.includes(parentId)) task.parents.push(parentId);
      const parent = this.tasks.get(parentId) ?? this.newRecord(parentId);
      parent.children.add(event.task_id);
      if (!this.tasks.has(parentId)) this.touch(parent);
    }
    this.evict(event.task_id);
    return true;
  }

  /** The task, or undefined when none of its events has been read (a parent only named by children included). */
  get(taskId: string): TaskView | undefined {
    const task = this.tasks.get(taskId);
    if (task === undefined || task.timeline.length === 0) return undefined;
    return { ...this.summaryOf(task), timeline: [...task.timeline], status_history: [...task.history] };
  }

  /** Tasks with at least one event, by task_id; `status` filters. */
  list(options: { status?: TaskStatus; limit?: number } = {}): TaskSummary[] {
    const ids = [...this.tasks.values()]
      .filter((task) => task.timeline.length > 0 && (options.status === undefined || task.status === options.status))
      .map((task) => task.task_id)
      .sort();
    return ids.slice(0, options.limit ?? ids.length).map((id) => this.summaryOf(this.tasks.get(id) as TaskRecord));
  }

  /** How many tasks are in each status (every status listed, zeros included). */
  statusCounts(): Record<TaskStatus, number> {
    const counts = Object.fromEntries(TASK_STATUSES.map((status) => [status, 0])) as Record<TaskStatus, number>;
    for (const task of this.tasks.values()) if (task.timeline.length > 0) counts[task.status] += 1;
    return counts;
  }

  /** Tasks kept, parents known only from their children included. */
  get size(): number {
    return this.tasks.size;
  }

  private newRecord(taskId: string): TaskRecord {
    return {
      task_id: taskId,
      status: 'CREATE',
      owner: null,
      parents: [],
      children: new Set(),
      eventIds: new Set(),
      timeline: [],
      history: [],
      outcomes: {},
    };
  }

  private summaryOf(task: TaskRecord): TaskSummary {
    return {
      task_id: task.task_id,
      status: task.status,
      owner: task.owner,
      parent_task_ids: [...task.parents],
      children: [...task.children].sort(),
      counts: { events: task.timeline.length, outcomes: { ...task.outcomes } },
      created_at: task.timeline[0]?.time ?? '',
      updated_at: task.timeline.at(-1)?.time ?? '',
    };
  }

  /** Re-inserted, so the map's first entry is always the task updated least recently. */
  private touch(task: TaskRecord): void {
    this.tasks.delete(task.task_id);
    this.tasks.set(task.task_id, task);
  }

  private evict(keep: string): void {
    while (this.tasks.size > this.maxTasks) {
      const oldest = this.tasks.keys().next().value;
      if (oldest === undefined || oldest === keep) return;
      this.tasks.delete(oldest);
    }
  }
}
