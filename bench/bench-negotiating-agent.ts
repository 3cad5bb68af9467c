/**
 * The benchmark's negotiating sender: offers every STATUS_UPDATE it gets to bench_agent by
 * negotiation. bench_agent accepts (the desired_agent_type is its id) and completes it;
 * the tracker runs this agent's side of the negotiation.
 */
import { defineAgent, runAgent } from '@baton/agent-sdk';

await runAgent(
  defineAgent({
    id: 'bench_sender',
    handlers: {
      STATUS_UPDATE: async (handoff, act) => {
        const { details } = handoff.payload.data as { details?: string };
        await act.requestHandoff({
          to: 'bench_agent',
          desired_agent_type: 'bench_agent',
          reason: 'bench',
          handoff_type: 'STATUS_UPDATE',
          data: { status: 'IN_PROGRESS', details: details ?? 'bench' },
          action: { action_type: 'NEGOTIATE_HANDOFF', details: 'asks bench_agent to take the task' },
        });
      },
    },
  }),
);
