import { defineAgent } from '@baton/agent-sdk';
import { compileSubtask } from './compile-subtask.js';

export const COMPILER_AGENT = 'compiler_agent';

/** The workflow's compiler. It consumes the worker's drafts and hands each compilation to the reviewer. */
export const agent = defineAgent({
  id: COMPILER_AGENT,
  handlers: {
    TASK_TRANSFER(handoff, act) {
      act.handOff(compileSubtask(handoff.payload.data));
    },
  },
});
