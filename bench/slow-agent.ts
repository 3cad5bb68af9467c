/**
 * The slow-handler row's agent: every STATUS_UPDATE waits SLOW_HANDLER_MS (default 2 s, a stand-in
 * for a model call) and then completes, so its throughput shows how many handlers one instance
 * runs at once.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { defineAgent, runAgent } from '@baton/agent-sdk';
import { SLOW_AGENT_ID, SLOW_HANDLER_MS } from './slow-handler.js';

const handlerMs = Number(process.env.SLOW_HANDLER_MS ?? SLOW_HANDLER_MS);

await runAgent(
  defineAgent({
    id: SLOW_AGENT_ID,
    handlers: {
      STATUS_UPDATE: async (handoff, act) => {
        await delay(handlerMs);
        act.complete(`waited ${handlerMs} ms`);
      },
    },
  }),
);
