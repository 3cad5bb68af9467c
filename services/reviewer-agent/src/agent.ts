import { defineAgent, deriveHandoff } from '@baton/agent-sdk';
import { BatonError } from '@baton/errors';
import type { Immutable, TaskTransferData } from '@baton/protocol';
import { handoffRecord } from '@baton/runtime';
import type { HandoffCodec } from '@baton/wire';
import { reviewSubtask } from './review-subtask.js';

export const REVIEWER_AGENT = 'reviewer_agent';

/**
 * Seed 003's agent D. It consumes compilations and either sends feedback back to the worker (the
 * next round) or approves: the subtask completes here (its outcome event is COMPLETED), and the
 * report to each parent task is written in the same transaction, as a record of its own rather than
 * a handoff of the subtask, so the subtask's outcome stays COMPLETED.
 */
let codec: HandoffCodec | undefined;

export const agent = defineAgent({
  id: REVIEWER_AGENT,
  handlers: {
    TASK_TRANSFER(handoff, act) {
      const review = reviewSubtask(
        handoff.payload.data as Immutable<TaskTransferData>,
        handoff.metadata.task_id,
        handoff.metadata.parent_task_ids ?? [],
      );
      if (review.kind === 'feedback') {
        act.handOff(review.next);
        return;
      }
      if (codec === undefined) throw new BatonError('HANDLER_FAILED', 'the handoff codec is not ready');
      for (const report of review.reports) {
        act.emit(handoffRecord(codec, act.topics.inbound, deriveHandoff(handoff, REVIEWER_AGENT, report)));
      }
      act.complete(review.summary);
    },
  },
  routes(_app, context) {
    // The agent's one hook into its service's context, called at start before any handoff.
    codec = context.codec;
  },
});
