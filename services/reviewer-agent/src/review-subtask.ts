import type { NextHandoff } from '@baton/agent-sdk';
import { SUBTASK_ATTRIBUTES_PATH, objectAt, positiveIntegerAt, subtaskAttributes } from '@baton/workflow';
import {
  HandoffValidationError,
  type Immutable,
  type JsonObject,
  type JsonValue,
  type TaskTransferData,
} from '@baton/protocol';

/** Where feedback goes: the worker, who does the subtask again. */
export const WORKER_AGENT = 'worker_agent';
/** Whom a subtask's end is reported to when attributes.workflow.report_to names no one. */
export const DEFAULT_REPORT_TO = 'planner_agent';
/** The event_type of the report to the parent task (the planner counts it). */
export const SUBTASK_COMPLETED_EVENT = 'SUBTASK_COMPLETED';

/** APPROVED: the compilation reached the required quality; ROUND_LIMIT: accepted at the last allowed round. */
export type Verdict = 'APPROVED' | 'ROUND_LIMIT';

export type Review =
  /** Not good enough yet, and rounds are left: back to the worker for the next round. */
  | { kind: 'feedback'; next: NextHandoff<'TASK_TRANSFER'> }
  /** The subtask is done: it completes here, and each parent hears of it. */
  | { kind: 'approved'; verdict: Verdict; summary: string; reports: NextHandoff<'NOTIFICATION'>[] };

/**
 * The reviewer on one round of a subtask, by a fixed rule: the compilation is approved when
 * its quality reaches attributes.workflow.required_quality (default: max_rounds), and accepted
 * when the round is the last one (max_rounds), so a subtask is reviewed at most max_rounds times.
 * Otherwise the feedback goes back to the worker as the next round. An approved subtask is
 * reported to each of its parents (metadata.parent_task_ids) by a NOTIFICATION to the parent task,
 * addressed to attributes.workflow.report_to.
 */
export function reviewSubtask(
  data: Immutable<TaskTransferData>,
  taskId: string,
  parentTaskIds: readonly string[],
): Review {
  const { attributes, workflow } = subtaskAttributes(data);
  const compilation = objectAt(
    attributes.compilation as JsonValue | undefined,
    `${SUBTASK_ATTRIBUTES_PATH}/compilation`,
  );
  const round = positiveIntegerAt(workflow.round as JsonValue | undefined, `${SUBTASK_ATTRIBUTES_PATH}/workflow/round`);
  const maxRounds = positiveIntegerAt(
    workflow.max_rounds as JsonValue | undefined,
    `${SUBTASK_ATTRIBUTES_PATH}/workflow/max_rounds`,
  );
  const required =
    workflow.required_quality === undefined
      ? maxRounds
      : positiveIntegerAt(
          workflow.required_quality as JsonValue,
          `${SUBTASK_ATTRIBUTES_PATH}/workflow/required_quality`,
        );
  if (compilation.round !== round) {
    throw new HandoffValidationError([
      {
        code: 'FIELD_INVALID',
        path: `${SUBTASK_ATTRIBUTES_PATH}/compilation/round`,
        message: `the compilation is of round ${String(compilation.round)}, the subtask at ${round}`,
      },
    ]);
  }
  const quality = typeof compilation.quality === 'number' ? compilation.quality : 0;
  const result = typeof compilation.text === 'string' ? compilation.text : data.task_summary;

  if (quality < required && round < maxRounds) {
    const rest = structuredClone(attributes) as JsonObject;
    delete rest.compilation;
    const text = `Round ${round} review: quality ${quality} of ${required} required; improve it.`;
    return {
      kind: 'feedback',
      next: {
        to: WORKER_AGENT,
        handoff_type: 'TASK_TRANSFER',
        workflow_state: `ROUND_${round + 1}_WORK`,
        data: {
          ...(structuredClone(data) as TaskTransferData),
          attributes: {
            ...rest,
            workflow: { ...(structuredClone(workflow) as JsonObject), round: round + 1 },
            feedback: { round, text },
          },
        },
        action: { action_type: 'REVIEW_FEEDBACK', details: text },
      },
    };
  }

  const verdict: Verdict = quality >= required ? 'APPROVED' : 'ROUND_LIMIT';
  const summary =
    verdict === 'APPROVED'
      ? `Approved at review round ${round} of at most ${maxRounds}.`
      : `Accepted at the round limit (${round} of ${maxRounds}), quality ${quality} of ${required} required.`;
  const reportTo = typeof workflow.report_to === 'string' ? workflow.report_to : DEFAULT_REPORT_TO;
  const index = workflow.subtask_index;
  const reports = parentTaskIds.map((parent): NextHandoff<'NOTIFICATION'> => ({
    to: reportTo,
    task_id: parent,
    handoff_type: 'NOTIFICATION',
    workflow_state: 'SUBTASK_COMPLETED',
    data: {
      event_type: SUBTASK_COMPLETED_EVENT,
      message: `Subtask ${taskId} of ${parent} completed after ${round} review round${round === 1 ? '' : 's'}.`,
      severity: 'INFO',
      issue_category: 'WORKFLOW',
      details: {
        child_task_id: taskId,
        ...(typeof index === 'number' ? { subtask_index: index } : {}),
        rounds: round,
        verdict,
        result,
      },
    },
    action: { action_type: 'REPORT_SUBTASK_COMPLETED', details: `${taskId}: ${summary}` },
  }));
  return { kind: 'approved', verdict, summary, reports };
}
