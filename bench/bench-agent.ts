/** The benchmark's agent: completes every STATUS_UPDATE, so the full path ends in an outcome event. */
import { defineAgent, runAgent } from '@baton/agent-sdk';

await runAgent(
  defineAgent({
    id: 'bench_agent',
    handlers: {
      STATUS_UPDATE: (handoff, act) => act.complete('benchmarked'),
    },
  }),
);
