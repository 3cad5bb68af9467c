import { describe, expect, it } from 'vitest';
import type { JsonObject, TaskTransferData } from '@baton/protocol';
import { reviewSubtask, type Review } from './review-subtask.js';

const workflow = {
  parent_task_id: 'p',
  report_to: 'planner_agent',
  subtask_index: 4,
  subtask_count: 10,
  max_rounds: 3,
};

function compiled(round: number, quality = round, extra: JsonObject = {}): TaskTransferData {
  return {
    issue_category: 'WORKFLOW_SUBTASK',
    task_summary: 'Part 4 of 10: x',
    attributes: {
      requirement: 'x',
      workflow: { ...workflow, round, ...extra },
      compilation: { round, text: `compiled ${round}`, quality },
    },
  };
}

/** Plays the rounds as the worker, compiler and reviewer would: the reviews until approval. */
function rounds(extra: JsonObject = {}): Review[] {
  const reviews: Review[] = [];
  for (let round = 1; round <= 20; round += 1) {
    const review = reviewSubtask(compiled(round, round, extra), 'p.subtask-4', ['p']);
    reviews.push(review);
    if (review.kind === 'approved') break;
  }
  return reviews;
}

describe('reviewSubtask', () => {
  it('sends feedback back to the worker as the next round until round K, then approves', () => {
    const reviews = rounds();
    expect(reviews.map((review) => review.kind)).toEqual(['feedback', 'feedback', 'approved']);
    const first = reviews[0]!;
    expect(first.kind === 'feedback' && first.next).toMatchObject({
      to: 'worker_agent',
      handoff_type: 'TASK_TRANSFER',
      workflow_state: 'ROUND_2_WORK',
      data: {
        attributes: {
          requirement: 'x',
          workflow: { ...workflow, round: 2 },
          feedback: { round: 1, text: 'Round 1 review: quality 1 of 3 required; improve it.' },
        },
      },
      action: { action_type: 'REVIEW_FEEDBACK' },
    });
    expect(first.kind === 'feedback' && first.next.data.attributes).not.toHaveProperty('compilation');
  });

  it('reports the approved subtask to its parent, as a notification to the parent task', () => {
    const approved = rounds().at(-1)!;
    expect(approved).toEqual({
      kind: 'approved',
      verdict: 'APPROVED',
      summary: 'Approved at review round 3 of at most 3.',
      reports: [
        {
          to: 'planner_agent',
          task_id: 'p',
          handoff_type: 'NOTIFICATION',
          workflow_state: 'SUBTASK_COMPLETED',
          data: {
            event_type: 'SUBTASK_COMPLETED',
            message: 'Subtask p.subtask-4 of p completed after 3 review rounds.',
            severity: 'INFO',
            issue_category: 'WORKFLOW',
            details: {
              child_task_id: 'p.subtask-4',
              subtask_index: 4,
              rounds: 3,
              verdict: 'APPROVED',
              result: 'compiled 3',
            },
          },
          action: {
            action_type: 'REPORT_SUBTASK_COMPLETED',
            details: 'p.subtask-4: Approved at review round 3 of at most 3.',
          },
        },
      ],
    });
  });

  it('approves as soon as the scripted quality is reached, and never reviews more than K times', () => {
    expect(rounds({ required_quality: 1 }).map((review) => review.kind)).toEqual(['approved']);
    const limited = rounds({ required_quality: 5 });
    expect(limited.map((review) => review.kind)).toEqual(['feedback', 'feedback', 'approved']);
    expect(limited.at(-1)).toMatchObject({ verdict: 'ROUND_LIMIT' });
    expect(rounds({ max_rounds: 1 })).toHaveLength(1);
  });

  it('reports to every parent, and to none for a task without one', () => {
    const twoParents = reviewSubtask(compiled(3), 'c', ['p', 'q']);
    expect(twoParents.kind === 'approved' && twoParents.reports.map((report) => report.task_id)).toEqual(['p', 'q']);
    const orphan = reviewSubtask(compiled(3), 'c', []);
    expect(orphan.kind === 'approved' && orphan.reports).toEqual([]);
  });

  it('refuses a compilation of another round', () => {
    const stale = compiled(2);
    (stale.attributes!.compilation as JsonObject).round = 1;
    expect(() => reviewSubtask(stale, 'c', ['p'])).toThrowError(
      expect.objectContaining({ code: 'VALIDATION_FAILED', path: '/payload/data/attributes/compilation/round' }),
    );
  });
});
