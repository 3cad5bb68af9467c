import { defineAgent, deriveHandoff } from '@baton/agent-sdk';
import { reviewSubtask } from './review-subtask.js';

export const REVIEWER_AGENT = 'reviewer_agent';

/**
 * The workflow's reviewer. It consumes compilations and either sends feedback back to the worker (the
 * next round) or approves: the subtask completes here (its outcome event is COMPLETED), and the
 * report to each parent task is written in the same transaction, as a record of its own rather than
 * a handoff of the subtask, so the subtask's outcome stays COMPLETED.
 */
export const agent = defineAgent({
  id: REVIEWER_AGENT,
  handlers: {
    TASK_TRANSFER(handoff, act) {
      const review = reviewSubtask(
        handoff.payload.data,
        handoff.metadata.task_id,
        handoff.metadata.parent_task_ids ?? [],
      );
      if (review.kind === 'feedback') {
        act.handOff(review.next);
        return;
      }
      for (const report of review.reports) act.emitHandoff(deriveHandoff(handoff, REVIEWER_AGENT, report));
      act.complete(review.summary);
    },
  },
});
