import { defineAgent } from '@baton/agent-sdk';
import { doSubtask } from './do-subtask.js';

export const WORKER_AGENT = 'worker_agent';

/**
 * The workflow's worker. It consumes subtasks from the planner and the reviewer's feedback (both a
 * TASK_TRANSFER of the subtask, attributes.workflow.round telling the round) and hands each
 * round's draft to the compiler.
 */
export const agent = defineAgent({
  id: WORKER_AGENT,
  handlers: {
    TASK_TRANSFER(handoff, act) {
      act.handOff(doSubtask(handoff.payload.data));
    },
  },
});
