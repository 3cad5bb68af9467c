import {
  HandoffValidationError,
  type Immutable,
  type JsonValue,
  type TaskTransferData,
  type ValidationIssue,
} from '@baton/protocol';
import { REVIEW_ROUND_LIMITS, SUBTASK_LIMITS, type PlannerSettings } from './planner-settings.js';

/** The issue_category of a requirement to split (the router's `workflows` rule sends it to the planner). */
export const WORKFLOW_CATEGORY = 'WORKFLOW';

/** One subtask of a plan. */
export interface PlannedSubtask {
  /** 1 to the plan's subtask count. */
  index: number;
  title: string;
  /**
   * The quality the reviewer asks for: each round of work raises a draft's quality by one, so a
   * subtask needing quality q is approved at round q, or accepted at the round limit if q exceeds it.
   */
  required_quality: number;
}

/** What the planner makes of a requirement: the planner splitting it into subtasks. */
export interface WorkflowPlan {
  requirement: string;
  /** K: how many times at most each subtask is reviewed. */
  max_review_rounds: number;
  subtasks: PlannedSubtask[];
}

const ATTRIBUTES = '/payload/data/attributes';

function isInteger(value: unknown, limits: { min: number; max: number }): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= limits.min && value <= limits.max;
}

function outOfRange(path: string, limits: { min: number; max: number }, value: unknown): ValidationIssue {
  return {
    code: 'FIELD_OUT_OF_RANGE',
    path,
    message: `must be an integer from ${limits.min} to ${limits.max}, not ${JSON.stringify(value)}`,
  };
}

/**
 * Splits a WORKFLOW request into its plan. The requirement is `task_summary`; `attributes` may
 * state `subtasks` (N, default from the settings), `subtask_titles` (one per subtask; otherwise
 * each is "Part i of N: <requirement>"), `max_review_rounds` (K, default from the settings) and
 * `required_quality` (one number for every subtask, or one per subtask; default K, so each
 * subtask is reviewed K times). Throws HandoffValidationError naming every bad attribute.
 */
export function planWorkflow(data: Immutable<TaskTransferData>, settings: PlannerSettings): WorkflowPlan {
  const attributes = (data.attributes ?? {}) as Immutable<Record<string, JsonValue>>;
  const issues: ValidationIssue[] = [];
  const QUALITY_LIMITS = { min: 1, max: 1_000 };

  let titles: string[] | undefined;
  if (attributes.subtask_titles !== undefined) {
    const given = attributes.subtask_titles;
    if (
      !Array.isArray(given) ||
      !given.every((title) => typeof title === 'string' && title.trim() !== '') ||
      !isInteger(given.length, SUBTASK_LIMITS)
    ) {
      issues.push({
        code: 'FIELD_INVALID',
        path: `${ATTRIBUTES}/subtask_titles`,
        message: `must be a list of ${SUBTASK_LIMITS.min} to ${SUBTASK_LIMITS.max} non-empty titles`,
      });
    } else {
      titles = (given as string[]).map((title) => title.trim());
    }
  }

  let count = titles?.length ?? settings.defaultSubtasks;
  if (attributes.subtasks !== undefined) {
    if (!isInteger(attributes.subtasks, SUBTASK_LIMITS)) {
      issues.push(outOfRange(`${ATTRIBUTES}/subtasks`, SUBTASK_LIMITS, attributes.subtasks));
    } else if (titles !== undefined && titles.length !== attributes.subtasks) {
      issues.push({
        code: 'FIELD_MISMATCH',
        path: `${ATTRIBUTES}/subtasks`,
        message: `is ${attributes.subtasks} but subtask_titles lists ${titles.length}`,
      });
    } else {
      count = attributes.subtasks;
    }
  }

  let rounds = settings.defaultReviewRounds;
  if (attributes.max_review_rounds !== undefined) {
    if (isInteger(attributes.max_review_rounds, REVIEW_ROUND_LIMITS)) rounds = attributes.max_review_rounds;
    else issues.push(outOfRange(`${ATTRIBUTES}/max_review_rounds`, REVIEW_ROUND_LIMITS, attributes.max_review_rounds));
  }

  let qualities: number[] = Array.from({ length: count }, () => rounds);
  const quality = attributes.required_quality;
  if (quality !== undefined) {
    if (isInteger(quality, QUALITY_LIMITS)) {
      qualities = qualities.map(() => quality);
    } else if (
      Array.isArray(quality) &&
      quality.length === count &&
      quality.every((value) => isInteger(value, QUALITY_LIMITS))
    ) {
      qualities = [...(quality as number[])];
    } else {
      issues.push({
        code: 'FIELD_INVALID',
        path: `${ATTRIBUTES}/required_quality`,
        message: `must be an integer from ${QUALITY_LIMITS.min} to ${QUALITY_LIMITS.max}, or a list of ${count} of them`,
      });
    }
  }

  if (issues.length > 0) throw new HandoffValidationError(issues);
  const requirement = data.task_summary.trim();
  return {
    requirement,
    max_review_rounds: rounds,
    subtasks: qualities.map((required_quality, offset) => ({
      index: offset + 1,
      title: titles?.[offset] ?? `Part ${offset + 1} of ${count}: ${requirement}`,
      required_quality,
    })),
  };
}
