import { defineAgent } from '@baton/agent-sdk';
import { diagnoseRootCause } from './diagnose-root-cause.js';

export const LEVEL3_NETWORK_EXPERTS = 'level3_network_expert_agent_pool';

/**
 * The level-3 network experts: the end of the escalation chain. They take escalations
 * only, find the root cause, record its remedy in the ledger, tell the customer and complete.
 */
export const agent = defineAgent({
  id: LEVEL3_NETWORK_EXPERTS,
  card: {
    name: 'Level3NetworkExpertAgent',
    domain: 'network',
    description: 'Level-3 network experts: the end of the escalation chain.',
    skills: [
      { name: 'root_cause_analysis', description: 'Finds the root cause of a network fault' },
      { name: 'network_remedy', description: 'Records the remedy of a network fault in the ledger' },
    ],
  },
  handlers: {
    ESCALATION(handoff, act) {
      const diagnosis = diagnoseRootCause(handoff.payload.data);
      act.recordEffect(diagnosis.effect, diagnosis.args);
      act.replyToUser(diagnosis.reply);
      act.complete(`Root cause: ${diagnosis.rootCause}. Remedy: ${diagnosis.effect}.`);
    },
  },
});
