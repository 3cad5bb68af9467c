import type { TaskEvent } from '@baton/protocol';
import { LIFECYCLE_EVENT_TYPE_PREFIX } from '@baton/negotiation';
import { OUTCOME_EVENT_TYPE_PREFIX } from '@baton/runtime';

/** Error codes with which the tracker ends a negotiation that no receiver took over. */
const TERMINAL_ERRORS = new Set(['HANDOFF_FAILED', 'HANDOFF_EXPIRED']);

/**
 * What one task's negotiation went through, in ms since the epoch: the lifecycle messages' own
 * timestamps, the outcome's time, and when the observer read the two that finish it.
 */
export interface NegotiatedTask {
  /** The first HandoffRequest. */
  requestedAt?: number;
  acceptedAt?: number;
  /** The tracker's TaskContextTransfer. */
  contextAt?: number;
  /** The first HandoffComplete SUCCESS. */
  completeAt?: number;
  completeReadAt?: number;
  /** The receiver's COMPLETED outcome for the handoff it took over. */
  completedAt?: number;
  completedReadAt?: number;
  /** HANDOFF_FAILED or HANDOFF_EXPIRED: the task ended without a receiver. */
  failure?: string;
  /** Rejections, HandoffComplete FAILUREs and timed-out attempts on the way. */
  setbacks: number;
}

/**
 * Whether an events record of CloudEvents type `ceType` can matter to NegotiationTimeline.add:
 * staged contexts (the largest records) and outcomes other than COMPLETED are passed over without
 * being decoded, so the observer takes less of the CPU the processes it measures share.
 */
export function mattersToTimeline(ceType: string | undefined): boolean {
  if (ceType === `${LIFECYCLE_EVENT_TYPE_PREFIX}StagedContext`) return false;
  return !ceType?.startsWith(OUTCOME_EVENT_TYPE_PREFIX) || ceType === `${OUTCOME_EVENT_TYPE_PREFIX}COMPLETED`;
}

/**
 * Folds the events topic's records of negotiated tasks, one negotiation per task: the first
 * HandoffRequest of a task is where its latencies start, whichever receiver ends up taking it.
 */
export class NegotiationTimeline {
  readonly tasks = new Map<string, NegotiatedTask>();
  private completedCount = 0;
  private failedCount = 0;

  /** `receiver` is the agent whose COMPLETED outcome ends a task. */
  constructor(private readonly receiver: string) {}

  get completed(): number {
    return this.completedCount;
  }

  get failed(): number {
    return this.failedCount;
  }

  /** Tasks completed by the receiver or ended by the tracker. */
  get settled(): number {
    return this.completedCount + this.failedCount;
  }

  /** Folds one record read at `readAt`; records of one task must come in topic order. */
  add(event: TaskEvent, readAt: number): void {
    if (event.kind === 'staged') return;
    const taskId = event.value.task_id;
    if (taskId === undefined) return;
    const task = this.task(taskId);
    if (event.kind === 'outcome') {
      const { agent_id, outcome, time } = event.value;
      if (agent_id !== this.receiver || outcome !== 'COMPLETED' || task.completedAt !== undefined) return;
      task.completedAt = Date.parse(time);
      task.completedReadAt = readAt;
      if (task.failure === undefined) this.completedCount += 1;
      return;
    }
    const message = event.value;
    const at = Date.parse(message.timestamp);
    switch (message.message_type) {
      case 'HandoffRequest':
        task.requestedAt ??= at;
        break;
      case 'HandoffAccept':
        task.acceptedAt ??= at;
        break;
      case 'TaskContextTransfer':
        task.contextAt ??= at;
        break;
      case 'HandoffComplete':
        if (message.payload.handoff_status === 'FAILURE') {
          task.setbacks += 1;
        } else if (task.completeAt === undefined) {
          task.completeAt = at;
          task.completeReadAt = readAt;
        }
        break;
      case 'HandoffReject':
        task.setbacks += 1;
        break;
      case 'ErrorNotification':
        if (TERMINAL_ERRORS.has(message.payload.error_code)) {
          if (task.failure === undefined && task.completedAt === undefined) this.failedCount += 1;
          task.failure ??= message.payload.error_code;
        } else {
          task.setbacks += 1;
        }
        break;
      default:
        break;
    }
  }

  /** How many tasks are missing each step, for a report on a run that stalled. */
  missing(): Record<'request' | 'accept' | 'context' | 'complete' | 'completed', number> {
    const counts = { request: 0, accept: 0, context: 0, complete: 0, completed: 0 };
    for (const task of this.tasks.values()) {
      if (task.failure !== undefined) continue;
      if (task.requestedAt === undefined) counts.request += 1;
      if (task.acceptedAt === undefined) counts.accept += 1;
      if (task.contextAt === undefined) counts.context += 1;
      if (task.completeAt === undefined) counts.complete += 1;
      if (task.completedAt === undefined) counts.completed += 1;
    }
    return counts;
  }

  private task(taskId: string): NegotiatedTask {
    let task = this.tasks.get(taskId);
    if (task === undefined) {
      task = { setbacks: 0 };
      this.tasks.set(taskId, task);
    }
    return task;
  }
}

/** The steps of a negotiated handoff, between the timestamps of consecutive messages. */
export const NEGOTIATION_STEPS = [
  'publish→request',
  'request→accept',
  'accept→context',
  'context→complete',
  'complete→COMPLETED',
] as const;

export type NegotiationStep = (typeof NEGOTIATION_STEPS)[number];

export interface NegotiationLatencies {
  /** Per completed task: HandoffRequest to HandoffComplete, and to the receiver's COMPLETED outcome. */
  toComplete: number[];
  toCompleted: number[];
  /** Per completed task, each step's share. */
  steps: Record<NegotiationStep, number[]>;
  /** When the observer read the last HandoffComplete, and the last COMPLETED outcome. */
  lastCompleteReadAt: number;
  lastCompletedReadAt: number;
}

/**
 * The latencies of the tasks that completed (both HandoffComplete and the receiver's outcome seen).
 * `publishedAt` gives the time each task's handoff was published, for the first step.
 */
export function negotiationLatencies(
  tasks: Iterable<[string, NegotiatedTask]>,
  publishedAt: ReadonlyMap<string, number>,
): NegotiationLatencies {
  const result: NegotiationLatencies = {
    toComplete: [],
    toCompleted: [],
    steps: Object.fromEntries(NEGOTIATION_STEPS.map((step) => [step, []])) as unknown as Record<
      NegotiationStep,
      number[]
    >,
    lastCompleteReadAt: Number.NaN,
    lastCompletedReadAt: Number.NaN,
  };
  for (const [taskId, task] of tasks) {
    const { requestedAt, acceptedAt, contextAt, completeAt, completedAt } = task;
    if (requestedAt === undefined || completeAt === undefined || completedAt === undefined) continue;
    result.toComplete.push(completeAt - requestedAt);
    result.toCompleted.push(completedAt - requestedAt);
    const published = publishedAt.get(taskId);
    if (published !== undefined) result.steps['publish→request'].push(requestedAt - published);
    if (acceptedAt !== undefined && contextAt !== undefined) {
      result.steps['request→accept'].push(acceptedAt - requestedAt);
      result.steps['accept→context'].push(contextAt - acceptedAt);
      result.steps['context→complete'].push(completeAt - contextAt);
    }
    result.steps['complete→COMPLETED'].push(completedAt - completeAt);
    result.lastCompleteReadAt = maxDefined(result.lastCompleteReadAt, task.completeReadAt);
    result.lastCompletedReadAt = maxDefined(result.lastCompletedReadAt, task.completedReadAt);
  }
  return result;
}

function maxDefined(current: number, next: number | undefined): number {
  if (next === undefined) return current;
  return Number.isNaN(current) ? next : Math.max(current, next);
}
