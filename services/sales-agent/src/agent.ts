import { defineAgent } from '@baton/agent-sdk';
import { takeOrder } from './take-order.js';

export const SALES_AGENT = 'sales_agent';

/** The sales agent: an order is an `execute_order` entry in the ledger, written exactly once. */
export const agent = defineAgent({
  id: SALES_AGENT,
  card: {
    name: 'SalesAgent',
    domain: 'sales',
    description: 'Anything sales or buying related: takes orders from the catalogue.',
    skills: [
      { name: 'execute_order', description: 'Places an order for a catalogue item, recorded once in the ledger' },
      { name: 'product_catalogue', description: 'Answers which products are for sale' },
    ],
  },
  handlers: {
    TASK_TRANSFER(handoff, act) {
      const decision = takeOrder({
        data: handoff.payload.data,
        history: handoff.context.user_interaction_history,
      });
      if (decision.kind === 'hand-back') {
        act.handOff(decision.handoff);
        return;
      }
      if (decision.kind === 'order') act.recordEffect('execute_order', decision.order);
      act.replyToUser(decision.reply);
      act.complete(decision.summary);
    },
  },
});
