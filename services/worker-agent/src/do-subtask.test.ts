import { describe, expect, it } from 'vitest';
import type { JsonObject, TaskTransferData } from '@baton/protocol';
import { doSubtask } from './do-subtask.js';

function subtask(attributes: JsonObject): TaskTransferData {
  return { issue_category: 'WORKFLOW_SUBTASK', task_summary: 'Part 2 of 10: Write the guide', attributes };
}

const workflow = { parent_task_id: 'p', subtask_index: 2, subtask_count: 10, round: 1, max_rounds: 3 };

describe('doSubtask', () => {
  it('drafts round 1 and hands it to the compiler, the workflow facts intact', () => {
    const next = doSubtask(subtask({ requirement: 'Write the guide', workflow }));
    expect(next).toEqual({
      to: 'compiler_agent',
      handoff_type: 'TASK_TRANSFER',
      workflow_state: 'ROUND_1_COMPILE',
      data: {
        issue_category: 'WORKFLOW_SUBTASK',
        task_summary: 'Part 2 of 10: Write the guide',
        attributes: {
          requirement: 'Write the guide',
          workflow,
          draft: { round: 1, text: 'Draft 1 of "Part 2 of 10: Write the guide"', quality: 1 },
        },
      },
      action: { action_type: 'DO_SUBTASK', details: 'Round 1: Draft 1 of "Part 2 of 10: Write the guide"' },
    });
  });

  it('does the subtask again on feedback, one quality level up, and drops the feedback it answered', () => {
    const next = doSubtask(
      subtask({ workflow: { ...workflow, round: 2 }, feedback: { round: 1, text: 'needs examples' } }),
    );
    expect(next.workflow_state).toBe('ROUND_2_COMPILE');
    expect(next.data.attributes).toEqual({
      workflow: { ...workflow, round: 2 },
      draft: { round: 2, text: 'Draft 2 of "Part 2 of 10: Write the guide", revised for: needs examples', quality: 2 },
    });
  });

  it('refuses a subtask without its round', () => {
    expect(() => doSubtask(subtask({ workflow: { ...workflow, round: 0 } }))).toThrowError(
      expect.objectContaining({ code: 'VALIDATION_FAILED', path: '/payload/data/attributes/workflow/round' }),
    );
    expect(() => doSubtask({ issue_category: 'X', task_summary: 'y' })).toThrowError(
      expect.objectContaining({ path: '/payload/data/attributes' }),
    );
  });
});
