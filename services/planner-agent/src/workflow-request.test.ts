import { describe, expect, it } from 'vitest';
import type { JsonObject, TaskTransferData } from '@baton/protocol';
import { planWorkflow, WORKFLOW_CATEGORY } from './workflow-request.js';
import { childTaskId, roundState, subtaskHandoffs } from './subtask-handoffs.js';

const settings = { defaultSubtasks: 10, defaultReviewRounds: 3 };

function request(attributes?: JsonObject): TaskTransferData {
  return {
    issue_category: WORKFLOW_CATEGORY,
    task_summary: ' Write the user guide ',
    ...(attributes === undefined ? {} : { attributes }),
  };
}

describe('planWorkflow', () => {
  it('splits a requirement into 10 subtasks by default, each to be reviewed 3 times', () => {
    const plan = planWorkflow(request(), settings);
    expect(plan.requirement).toBe('Write the user guide');
    expect(plan.max_review_rounds).toBe(3);
    expect(plan.subtasks).toHaveLength(10);
    expect(plan.subtasks[0]).toEqual({ index: 1, title: 'Part 1 of 10: Write the user guide', required_quality: 3 });
    expect(plan.subtasks.map((subtask) => subtask.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('takes N, K and the required quality from the request’s attributes', () => {
    const plan = planWorkflow(request({ subtasks: 3, max_review_rounds: 4, required_quality: [1, 4, 9] }), settings);
    expect(plan.max_review_rounds).toBe(4);
    expect(plan.subtasks.map((subtask) => subtask.required_quality)).toEqual([1, 4, 9]);
    expect(planWorkflow(request({ subtasks: 2, required_quality: 2 }), settings).subtasks).toEqual([
      { index: 1, title: 'Part 1 of 2: Write the user guide', required_quality: 2 },
      { index: 2, title: 'Part 2 of 2: Write the user guide', required_quality: 2 },
    ]);
  });

  it('uses the titles the request gives, as many subtasks as titles', () => {
    const plan = planWorkflow(request({ subtask_titles: ['Install', ' Configure '] }), settings);
    expect(plan.subtasks.map((subtask) => subtask.title)).toEqual(['Install', 'Configure']);
  });

  it('refuses bad attributes with every issue and its path', () => {
    expect(() =>
      planWorkflow(request({ subtasks: 0, max_review_rounds: 11, required_quality: [1, 2] }), settings),
    ).toThrowError(
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        details: {
          issues: [
            expect.objectContaining({ code: 'FIELD_OUT_OF_RANGE', path: '/payload/data/attributes/subtasks' }),
            expect.objectContaining({ code: 'FIELD_OUT_OF_RANGE', path: '/payload/data/attributes/max_review_rounds' }),
            expect.objectContaining({ code: 'FIELD_INVALID', path: '/payload/data/attributes/required_quality' }),
          ],
        },
      }),
    );
    expect(() => planWorkflow(request({ subtasks: 3, subtask_titles: ['a', 'b'] }), settings)).toThrowError(
      expect.objectContaining({ path: '/payload/data/attributes/subtasks' }),
    );
    expect(() => planWorkflow(request({ subtask_titles: ['a', ''] }), settings)).toThrowError(
      expect.objectContaining({ path: '/payload/data/attributes/subtask_titles' }),
    );
  });
});

describe('subtaskHandoffs', () => {
  it('makes one child task per subtask, naming its parent, at round 1 of the worker', () => {
    const plan = planWorkflow(request({ subtasks: 2, max_review_rounds: 3 }), settings);
    const handoffs = subtaskHandoffs('task-9', plan, 'planner_agent');
    expect(handoffs.map((next) => next.task_id)).toEqual(['task-9.subtask-1', 'task-9.subtask-2']);
    expect(new Set(handoffs.map((next) => next.task_id)).size).toBe(2);
    expect(handoffs[1]).toMatchObject({
      to: 'worker_agent',
      parent_task_ids: ['task-9'],
      handoff_type: 'TASK_TRANSFER',
      workflow_state: 'ROUND_1_WORK',
      data: {
        issue_category: 'WORKFLOW_SUBTASK',
        task_summary: 'Part 2 of 2: Write the user guide',
        attributes: {
          requirement: 'Write the user guide',
          workflow: {
            parent_task_id: 'task-9',
            report_to: 'planner_agent',
            subtask_index: 2,
            subtask_count: 2,
            round: 1,
            max_rounds: 3,
            required_quality: 3,
          },
        },
      },
    });
  });

  it('names children and round states predictably', () => {
    expect(childTaskId('t', 10)).toBe('t.subtask-10');
    expect(roundState(2, 'REVIEW')).toBe('ROUND_2_REVIEW');
  });
});
