import { defineAgent } from '@baton/agent-sdk';
import type { Immutable, TaskTransferData } from '@baton/protocol';
import { compileSubtask } from './compile-subtask.js';

export const COMPILER_AGENT = 'compiler_agent';

/** Seed 003's agent C. It consumes the worker's drafts and hands each compilation to the reviewer. */
export const agent = defineAgent({
  id: COMPILER_AGENT,
  handlers: {
    TASK_TRANSFER(handoff, act) {
      act.handOff(compileSubtask(handoff.payload.data as Immutable<TaskTransferData>));
    },
  },
});
