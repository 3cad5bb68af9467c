import type { NextHandoff } from '@baton/agent-sdk';
import type { WorkflowPlan } from './workflow-request.js';

/** The worker: does each subtask, and does it again on the reviewer's feedback. */
export const WORKER_AGENT = 'worker_agent';

/** The issue_category of a subtask's messages between the worker, the compiler and the reviewer. */
export const SUBTASK_CATEGORY = 'WORKFLOW_SUBTASK';

/**
 * The task_id of a parent's i-th subtask. Derived, not random: the same split always names the
 * same children, and an operator can tell a subtask's parent from its id alone.
 */
export function childTaskId(parentTaskId: string, index: number): string {
  return `${parentTaskId}.subtask-${index}`;
}

/** The workflow_state of a subtask at a step of a round: ROUND_1_WORK, ROUND_1_COMPILE, ROUND_1_REVIEW, ROUND_2_WORK... */
export function roundState(round: number, step: 'WORK' | 'COMPILE' | 'REVIEW'): string {
  return `ROUND_${round}_${step}`;
}

/**
 * The subtasks' first handoffs, to the worker at round 1. Each is a child task of its own
 * (task_id, so its messages are keyed and ordered on their own) naming its parent in
 * metadata.parent_task_ids. Its attributes carry what the worker, compiler and reviewer need:
 * `workflow` (the round, the round limit, the required quality, and whom to report to when it ends)
 * and the `requirement` it is part of.
 */
export function subtaskHandoffs(
  parentTaskId: string,
  plan: WorkflowPlan,
  reportTo: string,
): NextHandoff<'TASK_TRANSFER'>[] {
  const count = plan.subtasks.length;
  return plan.subtasks.map((subtask) => ({
    to: WORKER_AGENT,
    task_id: childTaskId(parentTaskId, subtask.index),
    parent_task_ids: [parentTaskId],
    handoff_type: 'TASK_TRANSFER',
    workflow_state: roundState(1, 'WORK'),
    data: {
      issue_category: SUBTASK_CATEGORY,
      task_summary: subtask.title,
      transfer_reason: `Subtask ${subtask.index} of ${count} of task ${parentTaskId}.`,
      attributes: {
        requirement: plan.requirement,
        workflow: {
          parent_task_id: parentTaskId,
          report_to: reportTo,
          subtask_index: subtask.index,
          subtask_count: count,
          round: 1,
          max_rounds: plan.max_review_rounds,
          required_quality: subtask.required_quality,
        },
      },
    },
    action: {
      action_type: 'SPLIT_REQUIREMENT',
      details: `Subtask ${subtask.index} of ${count}: ${subtask.title}`,
    },
  }));
}
