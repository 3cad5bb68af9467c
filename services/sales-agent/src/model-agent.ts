import type { AgentDefinition } from '@baton/agent-sdk';
import { defineModelAgent, type ConfiguredModel } from '@baton/model-agents';
import { SALES_AGENT } from './agent.js';
import { TRIAGE_AGENT } from './take-order.js';

/**
 * Sales as seed 002's model agent: its routine, execute_order (an entry in the ledger, once per
 * handoff and call) and transfer_back_to_triage.
 */
export function modelSalesAgent(model: ConfiguredModel): AgentDefinition {
  return defineModelAgent({
    ...model,
    id: SALES_AGENT,
    card: {
      name: 'SalesAgent',
      domain: 'sales',
      description: 'Anything sales or buying related: a language model talks the customer into an order.',
      skills: [
        { name: 'execute_order', description: 'Places an order, recorded once in the ledger' },
        { name: 'transfer_back_to_triage', description: 'Hands anything outside sales back to triage' },
      ],
    },
    instructions:
      'You are a sales agent for ACME Inc. Always answer in a sentence or less. ' +
      'Follow the following routine with the user:\n' +
      '1. Ask them about any problems in their life related to catching roadrunners.\n' +
      "2. Casually mention one of ACME's crazy made-up products can help.\n" +
      " - Don't mention price.\n" +
      '3. Once the user is bought in, drop a ridiculous price.\n' +
      '4. Only after everything, and if the user says yes, tell them a crazy caveat and execute their order.',
    tools: [
      {
        name: 'execute_order',
        description: 'Price should be in USD.',
        parameters: {
          type: 'object',
          properties: { product: { type: 'string' }, price: { type: 'integer', minimum: 0 } },
          required: ['product', 'price'],
          additionalProperties: false,
        },
        effect: true,
        run: () => 'Success',
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
