import { defineAgent } from '@baton/agent-sdk';
import { decideTransfer } from './decide-transfer.js';

export const CUSTOMER_SERVICE = 'customer_service_agent';

/** The customer service agent; it takes whole tasks (TASK_TRANSFER) only. */
export const agent = defineAgent({
  id: CUSTOMER_SERVICE,
  card: {
    name: 'CustomerServiceAgent',
    domain: 'customer_service',
    description: 'First-line customer service: answers general requests, escalates network faults.',
    skills: [
      { name: 'answer_general_question', description: 'Answers general support requests itself' },
      { name: 'escalate_network_fault', description: 'Escalates network faults to technical support' },
    ],
  },
  handlers: {
    TASK_TRANSFER(handoff, act) {
      const decision = decideTransfer({
        data: handoff.payload.data,
        priority: handoff.metadata.priority,
        history: handoff.context.user_interaction_history,
      });
      switch (decision.kind) {
        case 'escalate': {
          const { to, data, action, instructions } = decision.handoff;
          act.escalate(action, { to, data, instructions });
          return;
        }
        case 'answer':
          act.replyToUser(decision.reply);
          act.complete(decision.summary);
          return;
        case 'identify':
          act.replyToUser(decision.reply);
      }
    },
  },
});
