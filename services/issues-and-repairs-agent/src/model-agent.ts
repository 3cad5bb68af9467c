import type { AgentDefinition } from '@baton/agent-sdk';
import { defineModelAgent, type ConfiguredModel } from '@baton/model-agents';
import { ISSUES_AND_REPAIRS_AGENT } from './agent.js';
import { TRIAGE_AGENT } from './handle-issue.js';
import { lookUpItem } from './look-up-item.js';

/**
 * Issues and repairs as seed 002's model agent: its routine, look_up_item, execute_refund (an
 * entry in the ledger, once per handoff and call) and transfer_back_to_triage.
 */
export function modelIssuesAndRepairsAgent(model: ConfiguredModel): AgentDefinition {
  return defineModelAgent({
    ...model,
    id: ISSUES_AND_REPAIRS_AGENT,
    card: {
      name: 'IssuesAndRepairsAgent',
      domain: 'repairs',
      description: 'Issues, repairs and refunds: a language model proposes a fix, and refunds when that does not do.',
      skills: [
        { name: 'look_up_item', description: 'Finds the item an issue is about' },
        { name: 'execute_refund', description: 'Refunds an item, recorded once in the ledger' },
        { name: 'transfer_back_to_triage', description: 'Hands anything outside issues and repairs back to triage' },
      ],
    },
    instructions:
      'You are a customer support agent for ACME Inc. Always answer in a sentence or less. ' +
      'Follow the following routine with the user:\n' +
      "1. First, ask probing questions and understand the user's problem deeper.\n" +
      ' - unless the user has already provided a reason.\n' +
      '2. Propose a fix (make one up).\n' +
      '3. ONLY if not satisfied, offer a refund.\n' +
      '4. If accepted, search for the ID and then execute refund.',
    tools: [
      {
        name: 'look_up_item',
        description: 'Use to find item ID.\nSearch query can be a description or keywords.',
        parameters: {
          type: 'object',
          properties: { search_query: { type: 'string' } },
          required: ['search_query'],
          additionalProperties: false,
        },
        run: ({ search_query }) => lookUpItem(String(search_query)),
      },
      {
        name: 'execute_refund',
        description: 'Refunds an item by its ID.',
        parameters: {
          type: 'object',
          properties: { item_id: { type: 'string' }, reason: { type: 'string', default: 'not provided' } },
          required: ['item_id'],
          additionalProperties: false,
        },
        effect: true,
        run: () => 'success',
      },
    ],
    handoffs: [
      {
        to: TRIAGE_AGENT,
        tool: 'transfer_back_to_triage',
        description: 'Call this if the user brings up a topic outside of your purview,\nincluding escalating to human.',
      },
    ],
  });
}
