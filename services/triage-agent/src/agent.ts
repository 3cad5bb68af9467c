import { defineAgent } from '@baton/agent-sdk';
import { relayAnswer } from './relay-human-answer.js';
import { triageRequest } from './triage-request.js';

export const TRIAGE_AGENT = 'triage_agent';

/**
 * The triage agent: where customers' requests start (the router's default), classified by
 * keywords and handed to the agent that deals with them. It also relays the human agent's answer
 * to an escalation it made.
 */
export const agent = defineAgent({
  id: TRIAGE_AGENT,
  card: {
    name: 'TriageAgent',
    domain: 'triage',
    description:
      "Where customers' requests start: classifies them by keywords and hands them to the agent that deals with them.",
    skills: [
      {
        name: 'classify_request',
        description: 'Classifies a request as sales, refund, repair, network fault or human',
      },
      { name: 'relay_answer', description: "Relays a human agent's answer to the customer" },
    ],
  },
  handlers: {
    TASK_TRANSFER(handoff, act) {
      const decision = triageRequest({
        data: handoff.payload.data,
        priority: handoff.metadata.priority,
        history: handoff.context.user_interaction_history,
      });
      if (decision.kind === 'reply') {
        act.replyToUser(decision.reply);
        act.complete(decision.summary);
        return;
      }
      if (decision.kind === 'transfer') {
        act.handOff(decision.handoff);
        return;
      }
      const { to, data, action, instructions } = decision.handoff;
      act.escalate(action, { to, data, instructions });
      if (decision.reply !== undefined) act.replyToUser(decision.reply);
    },
    PROVIDE_INFORMATION: relayAnswer,
  },
});
