import {
  NEGOTIATION_OUTCOMES,
  NegotiationFold,
  type Negotiation,
  type NegotiationOutcome,
  type RefusedMessage,
} from '@baton/negotiation';
import {
  RecencyMap,
  ROUTER_AGENT_ID,
  type HandoffOutcome,
  type HandoffOutcomeKind,
  type Immutable,
  type LifecycleMessage,
  type StagedContext,
  type TaskEvent,
} from '@baton/protocol';
import type { BatonError } from '@baton/errors';
import { holderRefusal } from './outcome-holder.js';
import { StringPool } from './string-pool.js';
import { entryIdOf, taskIdOf, timeOf } from './task-events.js';
import { TaskIndex, type TaskIndexOptions, type TaskQuery, type TaskSearchResult } from './task-index.js';
import { TASK_STATUSES, type TaskStatus } from './task-status.js';

/**
 * The fields of an outcome event whose values recur from event to event (agents, types, outcomes,
 * categories, routing details): a timeline keeps one pooled copy of each value, not one per event.
 */
const POOLED_OUTCOME_FIELDS = [
  'agent_id',
  'handoff_type',
  'sender_id',
  'recipient_id',
  'issue_category',
  'outcome',
  'target',
  'detail',
  'error_code',
  'workflow_state',
] as const satisfies readonly (keyof OutcomeEvent)[];

const NO_PARENTS: readonly string[] = Object.freeze([]);

/** Statuses no later event changes: the task is not processed further. */
const FINAL_STATUSES: readonly TaskStatus[] = ['FAILED', 'EXPIRED'];

export type OutcomeEvent = Immutable<HandoffOutcome>;

/** One step of a task's timeline: an outcome event, a lifecycle message, or a staged context. */
export type TimelineEntry =
  | ({ kind: 'outcome' } & OutcomeEvent)
  | {
      kind: 'lifecycle';
      message_id: string;
      time: string;
      message_type: LifecycleMessage['message_type'];
      sender_id: string;
      receiver_id: string;
      correlation_id?: string;
      /** The payload's gist: a reason, a status, an error. */
      detail?: string;
      /** Set when the state machine refused the message: it was recorded, not applied. */
      refused?: RefusedMessage['error'];
    }
  | {
      kind: 'staged';
      message_id: string;
      time: string;
      sender_id: string;
      context_mode: Negotiation['context_mode'];
      detail: string;
    };

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
  /** Every event of the task, once each, in topic order. */
  timeline: TimelineEntry[];
  status_history: StatusChange[];
  /** The task's negotiated handoffs, oldest first, with the sender's and each receiver's state. */
  negotiations: Negotiation[];
  /** Lifecycle messages the state machine refused (late, duplicated under another id, out of order). */
  refused: RefusedMessage[];
  counts: { events: number; outcomes: Partial<Record<HandoffOutcomeKind, number>> };
  created_at: string;
  updated_at: string;
}

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
 * says nothing about who holds the task), nor does NOT_DELIVERED (the router's word that a recipient
 * the handoff named was not given it); DEAD_LETTERED and COMPLETED leave nobody holding it.
 * One exception, in `transitionOf`: while a task is WAITING, the routing of the question itself (a
 * REQUEST_INFORMATION handoff ROUTED) keeps it WAITING with the asking agent.
 */
export const STATUS_TABLE: Readonly<Record<HandoffOutcomeKind, Transition>> = {
  ROUTED: { status: 'EXECUTING', owner: 'target' },
  HANDED_OFF: { status: 'EXECUTING', owner: 'target' },
  HANDOFF_REQUESTED: { status: 'WAITING', owner: 'agent' },
  ESCALATED: { status: 'EXECUTING', owner: 'target' },
  PROCESSED: { status: 'EXECUTING', owner: 'agent' },
  INFORMATION_REQUESTED: { status: 'WAITING', owner: 'agent' },
  REPLIED: { status: 'unchanged', owner: 'unchanged' },
  DEAD_LETTERED: { status: 'BREAK', owner: 'none' },
  COMPLETED: { status: 'FINISH', owner: 'none' },
  NOT_DELIVERED: { status: 'unchanged', owner: 'unchanged' },
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
  /** The ids of the timeline's entries: an event seen again is ignored. */
  eventIds: Set<string>;
  /** The newest entries, up to maxEventsPerTask. */
  timeline: TimelineEntry[];
  /** Every event folded, the ones dropped from the timeline included. */
  eventCount: number;
  /** The time of the task's first event, kept when that event leaves the timeline. */
  createdAt: string;
  history: StatusChange[];
  outcomes: Partial<Record<HandoffOutcomeKind, number>>;
  negotiations: Map<string, NegotiationFold>;
  refused: RefusedMessage[];
  /**
   * The targets of the router's ROUTED events by message id, the newest up to maxEventsPerTask; a
   * target leaves once it has reported on the message.
   */
  routes: Map<string, string>;
  /** The agents that dead-lettered a routed message of the task, made at the first. */
  deadLetterers?: Set<string>;
}

/**
 * The services' bound on a book's timeline entries: 430 to 620 bytes of heap each (decoded events,
 * tasks of 100 and of 6 events), about 100 MiB, within the services' 512 MiB heap
 * (services/node.env) beside everything else they hold.
 */
export const DEFAULT_BOOK_MAX_EVENTS = 200_000;

/** The services' bound on one task's timeline: a task that runs for days keeps its newest steps. */
export const DEFAULT_BOOK_MAX_EVENTS_PER_TASK = 1_000;

export interface TaskBookOptions {
  /**
   * Tasks kept (a parent named by a child counts too); past it the task updated least recently is
   * forgotten. Unbounded by default. With a bound, what is forgotten depends on how the reader
   * interleaved partitions, so only an unbounded book is a pure function of each task's events.
   */
  maxTasks?: number;
  /**
   * Timeline entries kept over all tasks; past it, as past maxTasks, the tasks updated least
   * recently are forgotten. An entry weighs about 500 bytes of heap (its ids and time are strings
   * of their own), so this is the bound that holds the book's memory. Unbounded by default.
   */
  maxEvents?: number;
  /**
   * Timeline entries kept per task, the newest; the task's counts, status and negotiations still
   * fold every event. Unbounded by default.
   */
  maxEventsPerTask?: number;
  /**
   * Checks that each outcome event comes from an agent entitled to report on its task
   * (holderRefusal) and folds none that is not, telling `onRefused`. The tracker and the gateway
   * turn it on; off, every event is folded as it comes.
   */
  holderCheck?: { onRefused(event: OutcomeEvent, error: BatonError): void };
  /** The task list's bound and stuck threshold (TaskIndexOptions). */
  list?: TaskIndexOptions;
}

/**
 * The fold of the events topic into tasks. Each task's state depends only on its events and their
 * order (one partition per task, so topic order), never on the clock: a book rebuilt from the topic
 * equals one that never stopped. An event seen again (same event_id) is ignored while its task's
 * timeline still holds it. A parent's children are known even when the children's events are read
 * before the parent's.
 */
export class TaskBook {
  /** In the order tasks were last updated: the first is the one eviction takes. */
  private readonly tasks = new RecencyMap<string, TaskRecord>();
  private readonly maxTasks: number;
  private readonly maxEvents: number;
  private readonly maxEventsPerTask: number;
  private readonly holderCheck: TaskBookOptions['holderCheck'];
  /** Timeline entries over all tasks. */
  private entries = 0;
  private readonly strings = new StringPool();
  private readonly index: TaskIndex;

  constructor(options: TaskBookOptions = {}) {
    this.index = new TaskIndex(options.list);
    this.maxTasks = options.maxTasks ?? Number.POSITIVE_INFINITY;
    this.maxEvents = options.maxEvents ?? Number.POSITIVE_INFINITY;
    this.maxEventsPerTask = options.maxEventsPerTask ?? Number.POSITIVE_INFINITY;
    this.holderCheck = options.holderCheck;
  }

  /** Folds one outcome event in; false when it had been folded already or is refused. */
  add(event: OutcomeEvent): boolean {
    return this.apply({ kind: 'outcome', value: event });
  }

  /** Folds one record of the events topic in; false when it had been folded already or is refused. */
  apply(event: TaskEvent): boolean {
    const taskId = taskIdOf(event);
    const id = entryIdOf(event);
    const existing = this.tasks.get(taskId);
    if (existing?.eventIds.has(id)) return false;
    if (event.kind === 'outcome' && this.holderCheck !== undefined) {
      const refusal = holderRefusal(event.value, existing);
      if (refusal !== undefined) {
        this.holderCheck.onRefused(event.value, refusal);
        return false;
      }
    }
    const task = existing ?? this.newRecord(taskId);
    const at = timeOf(event);
    if (task.eventCount === 0) {
      task.history.push({ status: 'CREATE', at, event_id: id });
      task.createdAt = at;
    }
    task.eventIds.add(id);
    task.eventCount += 1;
    this.entries += 1;
    if (event.kind === 'outcome') this.foldOutcome(task, event.value);
    else if (event.kind === 'staged') this.foldStaged(task, event.value);
    else this.foldLifecycle(task, event.value);
    this.trim(task);
    this.touch(task);
    this.index.record(event, {
      taskId,
      status: task.status,
      owner: task.owner,
      createdAt: task.createdAt,
      parents: task.parents,
    });
    this.evict(taskId);
    return true;
  }

  /** The task's negotiations still open, as folded so far: what the tracker acts on. */
  openNegotiationsOf(taskId: string): NegotiationFold[] {
    return [...(this.tasks.get(taskId)?.negotiations.values() ?? [])].filter(
      (fold) => fold.negotiation.outcome === 'OPEN',
    );
  }

  /** Every task with a negotiation still open. */
  tasksNegotiating(): string[] {
    return [...this.tasks.values()].filter(isNegotiating).map((task) => task.task_id);
  }

  private foldOutcome(task: TaskRecord, event: OutcomeEvent): void {
    task.timeline.push(this.outcomeEntry(task, event));
    task.outcomes[event.outcome] = (task.outcomes[event.outcome] ?? 0) + 1;
    if (event.agent_id === ROUTER_AGENT_ID) {
      if (event.outcome === 'ROUTED' && event.target !== undefined) {
        task.routes.set(event.message_id, this.strings.intern(event.target));
      }
    } else if (event.outcome === 'DEAD_LETTERED') {
      // The route stays and the agent may report on the task again: a replay into its inbox brings
      // the same message back, or the same handoff under a new message id.
      (task.deadLetterers ??= new Set()).add(event.agent_id);
    } else {
      // A routed message is reported on once by each agent it went to: a second report would let
      // an agent that has handed the task on finish it after all.
      this.consumeRoute(task, event.message_id, event.agent_id);
    }
    const transition = transitionOf(event, task.status);
    this.setStatus(task, transition.status, event.time, event.event_id);
    if (!FINAL_STATUSES.includes(task.status)) {
      if (transition.owner === 'target') task.owner = event.target ?? null;
      else if (transition.owner === 'agent') task.owner = event.agent_id;
      else if (transition.owner === 'none') task.owner = null;
    }
    for (const parentId of event.parent_task_ids ?? []) {
      if (parentId === event.task_id) continue;
      if (!task.parents.includes(parentId)) task.parents.push(parentId);
      const parent = this.tasks.get(parentId) ?? this.newRecord(parentId);
      parent.children.add(event.task_id);
      if (!this.tasks.has(parentId)) this.touch(parent);
    }
  }

  private consumeRoute(task: TaskRecord, messageId: string, agent: string): void {
    const targets = task.routes.get(messageId);
    if (targets === undefined) return;
    if (targets === agent) {
      task.routes.delete(messageId);
      return;
    }
    const left = targets.split(',').filter((target) => target !== agent);
    if (left.length === 0) task.routes.delete(messageId);
    else task.routes.set(messageId, this.strings.intern(left.join(',')));
  }

  /**
   * The event as the timeline keeps it, equal to it field for field: the task id is the record's
   * own, recurring values are pooled and no parents share one empty list. A book keeps every event
   * it reads, and a decoded event holds a fresh copy of each string: this cuts what an entry
   * weighs by about a third (issue 10: the tracker's peak RSS under the bench). The signature is
   * dropped.
   */
  private outcomeEntry(task: TaskRecord, event: OutcomeEvent): TimelineEntry {
    const entry: Record<string, unknown> = { kind: 'outcome', ...event, task_id: task.task_id };
    // The signature was checked as the event was read; kept, its 110 characters would add a quarter
    // to the entry's weight, for a view that has no use for them. Set rather than deleted: a
    // deleted member turns the entry into a dictionary, heavier still.
    if (entry.signature !== undefined) entry.signature = undefined;
    for (const field of POOLED_OUTCOME_FIELDS) {
      const value = entry[field];
      if (typeof value === 'string') entry[field] = this.strings.intern(value);
    }
    if (event.parent_task_ids?.length === 0) entry.parent_task_ids = NO_PARENTS;
    return entry as TimelineEntry;
  }

  /** A negotiation opens: the sender keeps the task, which waits for a receiver. */
  private foldStaged(task: TaskRecord, staged: Immutable<StagedContext>): void {
    const fold = new NegotiationFold(staged);
    task.negotiations.set(staged.request_message_id, fold);
    const mode = fold.negotiation.context_mode;
    task.timeline.push({
      kind: 'staged',
      message_id: entryIdOf({ kind: 'staged', value: staged }),
      time: staged.staged_at,
      sender_id: staged.sender_id,
      context_mode: mode,
      detail:
        mode === 'by-reference'
          ? `context of ${staged.context.context_ref?.size_bytes ?? 0} bytes stored at ${staged.context.context_ref?.uri ?? ''}`
          : 'context offered by value',
    });
    this.setStatus(task, 'WAITING', staged.staged_at, staged.request_message_id);
    if (!FINAL_STATUSES.includes(task.status)) task.owner = staged.sender_id;
  }

  /**
   * A lifecycle message moves the negotiation it belongs to, when the state machine allows it: a
   * completed handoff gives the task to its receiver, a failed or expired negotiation ends the task.
   */
  private foldLifecycle(task: TaskRecord, message: Immutable<LifecycleMessage>): void {
    const fold = this.negotiationOf(task, message);
    const refusal = fold?.apply(message);
    task.timeline.push({
      kind: 'lifecycle',
      message_id: message.message_id,
      time: message.timestamp,
      message_type: message.message_type,
      sender_id: message.sender_id,
      receiver_id: message.receiver_id,
      ...(message.correlation_id === undefined ? {} : { correlation_id: message.correlation_id }),
      ...detailOf(message),
      ...(refusal === undefined ? {} : { refused: refusal }),
    });
    if (refusal !== undefined) {
      task.refused.push({
        message_id: message.message_id,
        message_type: message.message_type,
        time: message.timestamp,
        error: refusal,
      });
      return;
    }
    const outcome = fold?.negotiation.outcome;
    if (outcome === 'COMPLETED' && message.message_type === 'HandoffComplete') {
      this.setStatus(task, 'EXECUTING', message.timestamp, message.message_id);
      if (!FINAL_STATUSES.includes(task.status)) task.owner = message.sender_id;
    } else if (outcome === 'FAILED' || outcome === 'EXPIRED') {
      const ended = outcome === 'FAILED' ? 'FAILED' : 'EXPIRED';
      this.setStatus(task, ended, message.timestamp, message.message_id);
      if (task.status === ended && ended === 'EXPIRED') task.owner = null;
    }
  }

  /** The negotiation a message belongs to: a request's own or its correlation's, a reply's by its request. */
  private negotiationOf(task: TaskRecord, message: Immutable<LifecycleMessage>): NegotiationFold | undefined {
    for (const id of [message.message_id, message.correlation_id]) {
      const direct = id === undefined ? undefined : task.negotiations.get(id);
      if (direct !== undefined) return direct;
    }
    for (const fold of task.negotiations.values()) {
      if (fold.attemptOf(message.correlation_id) !== undefined) return fold;
    }
    return undefined;
  }

  private setStatus(task: TaskRecord, status: TaskStatus | 'unchanged', at: string, eventId: string): void {
    if (status === 'unchanged' || status === task.status || FINAL_STATUSES.includes(task.status)) return;
    task.status = status;
    task.history.push({ status, at, event_id: eventId });
  }

  /** The task, or undefined when none of its events has been read (a parent only named by children included). */
  get(taskId: string): TaskView | undefined {
    const task = this.tasks.get(taskId);
    if (task === undefined || task.eventCount === 0) return undefined;
    return {
      ...this.summaryOf(task),
      timeline: [...task.timeline],
      status_history: [...task.history],
      negotiations: [...task.negotiations.values()].map((fold) => structuredClone(fold.negotiation)),
      refused: [...task.refused],
    };
  }

  /** A page of the task list: every task the book has read, past its bounds too, newest first (TaskIndex). */
  search(query: TaskQuery, now?: number): TaskSearchResult {
    return this.index.search(query, now);
  }

  /** How many tasks are stuck as of `now`, by the agent(s) holding them (TaskIndex). */
  stuckByOwner(now?: number): { owner: string; count: number }[] {
    return this.index.stuckByOwner(now);
  }

  /** How many tasks are in each status (every status listed, zeros included). */
  statusCounts(): Record<TaskStatus, number> {
    const counts = Object.fromEntries(TASK_STATUSES.map((status) => [status, 0])) as Record<TaskStatus, number>;
    for (const task of this.tasks.values()) if (task.eventCount > 0) counts[task.status] += 1;
    return counts;
  }

  /** How many negotiated handoffs are in each outcome (every outcome listed, zeros included). */
  negotiationCounts(): Record<NegotiationOutcome, number> {
    const counts = Object.fromEntries(NEGOTIATION_OUTCOMES.map((outcome) => [outcome, 0])) as Record<
      NegotiationOutcome,
      number
    >;
    for (const task of this.tasks.values()) {
      for (const fold of task.negotiations.values()) counts[fold.negotiation.outcome] += 1;
    }
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
      eventCount: 0,
      createdAt: '',
      history: [],
      outcomes: {},
      negotiations: new Map(),
      refused: [],
      routes: new Map(),
    };
  }

  private summaryOf(task: TaskRecord): Omit<TaskView, 'timeline' | 'status_history' | 'negotiations' | 'refused'> {
    return {
      task_id: task.task_id,
      status: task.status,
      owner: task.owner,
      parent_task_ids: [...task.parents],
      children: [...task.children].sort(),
      counts: { events: task.eventCount, outcomes: { ...task.outcomes } },
      created_at: task.createdAt,
      updated_at: task.timeline.at(-1)?.time ?? '',
    };
  }

  private touch(task: TaskRecord): void {
    this.tasks.set(task.task_id, task);
  }

  /** Drops the task's oldest timeline entries past maxEventsPerTask, and the status changes as many. */
  private trim(task: TaskRecord): void {
    while (task.timeline.length > this.maxEventsPerTask) {
      const dropped = task.timeline.shift() as TimelineEntry;
      task.eventIds.delete(dropped.kind === 'outcome' ? dropped.event_id : dropped.message_id);
      this.entries -= 1;
    }
    if (task.history.length > this.maxEventsPerTask)
      task.history.splice(0, task.history.length - this.maxEventsPerTask);
    while (task.routes.size > this.maxEventsPerTask) task.routes.delete(task.routes.keys().next().value as string);
  }

  /**
   * Forgets the tasks updated least recently while the book is past a bound, but never `keep` (the
   * task just updated) nor a task with a negotiation still open: the tracker acts on those (their
   * deadlines, the context to send), and the open ones are few, each open for seconds.
   */
  private evict(keep: string): void {
    let passed = 0;
    while ((this.tasks.size > this.maxTasks || this.entries > this.maxEvents) && passed < this.tasks.size) {
      const [, oldest] = this.tasks.shift() as [string, TaskRecord];
      // Kept: set again, behind only the parents it named, if any were new.
      if (oldest.task_id === keep) {
        this.touch(oldest);
        return;
      }
      if (isNegotiating(oldest)) {
        this.touch(oldest);
        passed += 1;
        continue;
      }
      this.entries -= oldest.timeline.length;
    }
  }
}

function isNegotiating(task: TaskRecord): boolean {
  for (const fold of task.negotiations.values()) if (fold.negotiation.outcome === 'OPEN') return true;
  return false;
}

function detailOf(message: Immutable<LifecycleMessage>): { detail?: string } {
  switch (message.message_type) {
    case 'HandoffRequest':
      return { detail: `${message.payload.desired_agent_type}: ${message.payload.reason}` };
    case 'HandoffAccept':
      return { detail: `expects to take ${message.payload.estimated_handoff_time} s` };
    case 'HandoffReject': {
      const suggestions = message.payload.alternative_agent_suggestions ?? [];
      return {
        detail: `${message.payload.reason}${suggestions.length === 0 ? '' : `; suggests ${suggestions.join(', ')}`}`,
      };
    }
    case 'TaskContextTransfer':
      return {
        detail:
          message.payload.context_ref === undefined
            ? 'context by value'
            : `context by reference (${message.payload.context_ref.size_bytes} bytes)`,
      };
    case 'HandoffComplete':
      return { detail: message.payload.handoff_status };
    case 'TaskStatusUpdate':
      return { detail: `${message.payload.status}: ${message.payload.details}` };
    case 'ErrorNotification':
      return {
        detail: `${message.payload.error_code} (${message.payload.severity}): ${message.payload.error_message}`,
      };
    default:
      return {};
  }
}
