import { HandoffValidationError, type Immutable, type JsonValue, type NotificationData } from '@baton/protocol';
import { childTaskId } from './subtask-handoffs.js';
import type { WorkflowPlan } from './workflow-request.js';

/** The event_type of a subtask's end that counts toward its parent: done, or given up. */
export const SUBTASK_COMPLETED_EVENT = 'SUBTASK_COMPLETED';
export const SUBTASK_FAILED_EVENT = 'SUBTASK_FAILED';

/** How one child ended, as the agent that ended it reported. */
export interface ChildEnding {
  status: 'COMPLETED' | 'FAILED';
  /** Review rounds the child took. */
  rounds?: number;
  /** The reviewer's verdict: APPROVED, or ROUND_LIMIT when accepted at the last round. */
  verdict?: string;
  result?: string;
  /** The message that reported it. */
  message_id: string;
  at: string;
}

/**
 * A parent task's workflow as the planner keeps it, one record per parent (keyed by its task_id)
 * in the planner's compacted state topic. It is written in the same transaction as the handoff
 * that changed it, so it holds exactly what the planner has committed.
 */
export interface WorkflowState {
  parent_task_id: string;
  requirement: string;
  max_review_rounds: number;
  children: { task_id: string; index: number; title: string }[];
  /** The children that have ended, by task_id. */
  ended: Record<string, ChildEnding>;
  started_at: string;
  /** Set once, when the last child ended: the parent completed then. */
  completed_at?: string;
}

/** A child's end, read from the NOTIFICATION that reports it (to the parent task). */
export interface ChildReport {
  child_task_id: string;
  status: ChildEnding['status'];
  rounds?: number;
  verdict?: string;
  result?: string;
  message_id: string;
}

export type ChildReportOutcome =
  /** The child is not one of this parent's. */
  | { kind: 'unknown-child' }
  /** The child had already ended (or the parent completed): nothing changes. */
  | { kind: 'already-ended' }
  /** Counted; other children are still running. */
  | { kind: 'progress'; state: WorkflowState; ended: number; total: number }
  /** Counted, and it was the last: the parent completes now, once. */
  | { kind: 'completed'; state: WorkflowState; ended: number; total: number };

export function startWorkflow(parentTaskId: string, plan: WorkflowPlan, now: Date): WorkflowState {
  return {
    parent_task_id: parentTaskId,
    requirement: plan.requirement,
    max_review_rounds: plan.max_review_rounds,
    children: plan.subtasks.map((subtask) => ({
      task_id: childTaskId(parentTaskId, subtask.index),
      index: subtask.index,
      title: subtask.title,
    })),
    ended: {},
    started_at: now.toISOString(),
  };
}

/**
 * Counts a child's end toward its parent. A child counts once, however often its end is
 * reported; the parent completes when the last of its children has ended, and never again.
 */
export function recordChildEnded(state: WorkflowState, report: ChildReport, now: Date): ChildReportOutcome {
  if (!state.children.some((child) => child.task_id === report.child_task_id)) return { kind: 'unknown-child' };
  if (state.ended[report.child_task_id] !== undefined || state.completed_at !== undefined) {
    return { kind: 'already-ended' };
  }
  const ending: ChildEnding = {
    status: report.status,
    ...(report.rounds === undefined ? {} : { rounds: report.rounds }),
    ...(report.verdict === undefined ? {} : { verdict: report.verdict }),
    ...(report.result === undefined ? {} : { result: report.result }),
    message_id: report.message_id,
    at: now.toISOString(),
  };
  const ended = { ...state.ended, [report.child_task_id]: ending };
  const count = Object.keys(ended).length;
  const total = state.children.length;
  if (count < total) return { kind: 'progress', state: { ...state, ended }, ended: count, total };
  return { kind: 'completed', state: { ...state, ended, completed_at: now.toISOString() }, ended: count, total };
}

/** One line on how the workflow went, for the parent's outcome event. */
export function completionSummary(state: WorkflowState): string {
  const endings = Object.values(state.ended);
  const completed = endings.filter((ending) => ending.status === 'COMPLETED').length;
  const failed = endings.length - completed;
  const rounds = endings.reduce((sum, ending) => sum + (ending.rounds ?? 0), 0);
  return (
    `All ${state.children.length} subtasks ended: ${completed} completed` +
    (failed > 0 ? `, ${failed} failed` : '') +
    `; ${rounds} review rounds in all (at most ${state.max_review_rounds} each).`
  );
}

/** The user's answer: the compiled result of every subtask, in order. */
export function compiledResult(state: WorkflowState): string {
  const lines = state.children.map((child) => {
    const ending = state.ended[child.task_id];
    const outcome = ending?.status === 'COMPLETED' ? (ending.result ?? child.title) : `(failed) ${child.title}`;
    return `${child.index}. ${outcome}`;
  });
  return [`Done: ${state.requirement}`, ...lines].join('\n');
}

function field(details: Immutable<Record<string, JsonValue>>, name: string): JsonValue | undefined {
  return details[name] as JsonValue | undefined;
}

/**
 * Reads a child's end from a NOTIFICATION to its parent: event_type SUBTASK_COMPLETED or
 * SUBTASK_FAILED, details.child_task_id naming the child, and optionally details.rounds, verdict
 * and result. Returns undefined for other notifications; throws HandoffValidationError for a
 * report without a child.
 */
export function readChildReport(data: Immutable<NotificationData>, messageId: string): ChildReport | undefined {
  if (data.event_type !== SUBTASK_COMPLETED_EVENT && data.event_type !== SUBTASK_FAILED_EVENT) return undefined;
  const details = (data.details ?? {}) as Immutable<Record<string, JsonValue>>;
  const child = field(details, 'child_task_id');
  if (typeof child !== 'string' || child === '') {
    throw new HandoffValidationError([
      {
        code: 'FIELD_REQUIRED',
        path: '/payload/data/details/child_task_id',
        message: `a ${data.event_type} notification names the child task that ended`,
      },
    ]);
  }
  const rounds = field(details, 'rounds');
  const verdict = field(details, 'verdict');
  const result = field(details, 'result');
  return {
    child_task_id: child,
    status: data.event_type === SUBTASK_COMPLETED_EVENT ? 'COMPLETED' : 'FAILED',
    ...(typeof rounds === 'number' ? { rounds } : {}),
    ...(typeof verdict === 'string' ? { verdict } : {}),
    ...(typeof result === 'string' ? { result } : {}),
    message_id: messageId,
  };
}

/** A state record's value back; throws when it is not a workflow state. */
export function parseWorkflowState(value: Buffer): WorkflowState {
  const state = JSON.parse(value.toString()) as Partial<WorkflowState>;
  if (
    typeof state.parent_task_id !== 'string' ||
    !Array.isArray(state.children) ||
    typeof state.ended !== 'object' ||
    state.ended === null
  ) {
    throw new Error('not a workflow state');
  }
  return state as WorkflowState;
}
