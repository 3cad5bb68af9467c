import { describe, expect, it } from 'vitest';
import type { JsonObject, TaskTransferData } from '@baton/protocol';
import { compileSubtask } from './compile-subtask.js';

function drafted(attributes: JsonObject): TaskTransferData {
  return { issue_category: 'WORKFLOW_SUBTASK', task_summary: 'Part 1 of 2: x', attributes };
}

const workflow = { subtask_index: 1, subtask_count: 2, round: 2, max_rounds: 3 };

describe('compileSubtask', () => {
  it('compiles the round’s draft for the reviewer, keeping its quality', () => {
    const next = compileSubtask(drafted({ workflow, draft: { round: 2, text: 'Draft 2', quality: 2 } }));
    expect(next).toMatchObject({
      to: 'reviewer_agent',
      handoff_type: 'TASK_TRANSFER',
      workflow_state: 'ROUND_2_REVIEW',
      action: { action_type: 'COMPILE_SUBTASK' },
    });
    expect(next.data.attributes).toEqual({
      workflow,
      compilation: { round: 2, text: 'Subtask 1/2, round 2: Draft 2', quality: 2 },
    });
  });

  it('refuses a draft of another round, or none', () => {
    expect(() => compileSubtask(drafted({ workflow, draft: { round: 1, text: 'old', quality: 1 } }))).toThrowError(
      expect.objectContaining({ code: 'VALIDATION_FAILED', path: '/payload/data/attributes/draft/round' }),
    );
    expect(() => compileSubtask(drafted({ workflow }))).toThrowError(
      expect.objectContaining({ path: '/payload/data/attributes/draft' }),
    );
  });
});
