import { BatonError } from '@baton/errors';

/** Bounds of a workflow: how many subtasks a requirement may be split into, and review rounds per subtask. */
export const SUBTASK_LIMITS = { min: 1, max: 100 } as const;
export const REVIEW_ROUND_LIMITS = { min: 1, max: 10 } as const;

/** What a workflow request that states neither gets: 10 subtasks, each reviewed at most 3 times. */
export interface PlannerSettings {
  defaultSubtasks: number;
  defaultReviewRounds: number;
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, limits: { min: number; max: number }): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < limits.min || value > limits.max) {
    throw new BatonError(
      'CONFIG_INVALID',
      `${name} must be an integer from ${limits.min} to ${limits.max}, not "${raw}"`,
      { path: `/env/${name}` },
    );
  }
  return value;
}

/**
 * The planner's defaults, from `PLANNER_DEFAULT_SUBTASKS` (10) and `PLANNER_DEFAULT_REVIEW_ROUNDS`
 * (3); a request's attributes override them. A bad value is CONFIG_INVALID naming the variable.
 */
export function readPlannerSettings(env: Env = process.env): PlannerSettings {
  return {
    defaultSubtasks: integer(env, 'PLANNER_DEFAULT_SUBTASKS', 10, SUBTASK_LIMITS),
    defaultReviewRounds: integer(env, 'PLANNER_DEFAULT_REVIEW_ROUNDS', 3, REVIEW_ROUND_LIMITS),
  };
}
