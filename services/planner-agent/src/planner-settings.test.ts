import { describe, expect, it } from 'vitest';
import { readPlannerSettings } from './planner-settings.js';

describe('readPlannerSettings', () => {
  it('defaults to 10 subtasks and 3 review rounds', () => {
    expect(readPlannerSettings({})).toEqual({ defaultSubtasks: 10, defaultReviewRounds: 3 });
  });

  it('reads both defaults from the environment', () => {
    expect(readPlannerSettings({ PLANNER_DEFAULT_SUBTASKS: '4', PLANNER_DEFAULT_REVIEW_ROUNDS: ' 2 ' })).toEqual({
      defaultSubtasks: 4,
      defaultReviewRounds: 2,
    });
  });

  it.each([
    ['PLANNER_DEFAULT_SUBTASKS', '0'],
    ['PLANNER_DEFAULT_SUBTASKS', '101'],
    ['PLANNER_DEFAULT_REVIEW_ROUNDS', '2.5'],
    ['PLANNER_DEFAULT_REVIEW_ROUNDS', 'three'],
  ])('refuses %s=%s with CONFIG_INVALID naming the variable', (name, value) => {
    expect(() => readPlannerSettings({ [name]: value })).toThrowError(
      expect.objectContaining({ code: 'CONFIG_INVALID', path: `/env/${name}` }),
    );
  });
});
