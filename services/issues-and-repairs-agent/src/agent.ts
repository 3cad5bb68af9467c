import { defineAgent, type AgentDefinition } from '@baton/agent-sdk';
import { handleIssue } from './handle-issue.js';
import { refundAnswer } from './refund-answer.js';
import type { RefundPolicy } from './refund-policy.js';

export const ISSUES_AND_REPAIRS_AGENT = 'issues_and_repairs_agent';

/**
 * The issues and repairs agent. A refund is an `execute_refund` entry in the ledger,
 * written exactly once with the handled message, whether executed at once or on a human's approval.
 */
export function issuesAndRepairsAgent(policy: RefundPolicy): AgentDefinition {
  return defineAgent({
    id: ISSUES_AND_REPAIRS_AGENT,
    card: {
      name: 'IssuesAndRepairsAgent',
      domain: 'repairs',
      description: 'Issues, repairs and refunds; refunds above the automatic limit need a human approval.',
      skills: [
        { name: 'execute_refund', description: 'Refunds an item, recorded once in the ledger' },
        { name: 'look_up_item', description: 'Finds the item an issue is about' },
        { name: 'repair_request', description: 'Books a repair of a faulty item' },
      ],
    },
    handlers: {
      TASK_TRANSFER(handoff, act) {
        const decision = handleIssue(handoff.payload.data, policy);
        switch (decision.kind) {
          case 'hand-back':
            act.handOff(decision.handoff);
            return;
          case 'approval':
            act.handOff(decision.handoff);
            act.replyToUser(decision.reply);
            return;
          case 'refund':
            act.recordEffect('execute_refund', { ...decision.refund });
            break;
          case 'repair':
            break;
        }
        act.replyToUser(decision.reply);
        act.complete(decision.summary);
      },
      PROVIDE_INFORMATION(handoff, act) {
        const decision = refundAnswer(handoff.metadata.sender_id, handoff.payload.data);
        if (decision.kind === 'refund') act.recordEffect('execute_refund', { ...decision.refund });
        act.replyToUser(decision.reply);
        act.complete(decision.summary);
      },
    },
  });
}
