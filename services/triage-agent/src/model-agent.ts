import type { AgentDefinition } from '@baton/agent-sdk';
import { defineModelAgent, type ConfiguredModel } from '@baton/model-agents';
import { relayAnswer } from './relay-human-answer.js';
import { HUMAN_AGENT, ISSUES_AND_REPAIRS_AGENT, SALES_AGENT } from './triage-request.js';
import { TRIAGE_AGENT } from './agent.js';

/**
 * Triage as seed 002's model agent: its instructions and delegate tools, transfer_to_<agent> for
 * sales and issues and repairs, and escalate_to_human, which needs the customer's identity.
 */
export function modelTriageAgent(model: ConfiguredModel): AgentDefinition {
  return defineModelAgent({
    ...model,
    id: TRIAGE_AGENT,
    card: {
      name: 'TriageAgent',
      domain: 'triage',
      description: "Where customers' requests start: a language model asks what they need and hands them on.",
      skills: [
        { name: 'transfer_to_sales_agent', description: 'Hands a customer who wants to buy to sales' },
        {
          name: 'transfer_to_issues_and_repairs_agent',
          description: 'Hands issues, repairs and refunds to issues and repairs',
        },
        { name: 'escalate_to_human', description: 'Escalates to a human, only when the customer asks for one' },
        { name: 'relay_answer', description: "Relays a human agent's answer to the customer" },
      ],
    },
    instructions:
      'You are a customer service bot for ACME Inc. Introduce yourself. Always be very brief. ' +
      'Gather information to direct the customer to the right department. But make your questions subtle and natural.',
    handoffs: [
      { to: ISSUES_AND_REPAIRS_AGENT, description: 'Use for issues, repairs, or refunds.', issue_category: 'REFUND' },
      { to: SALES_AGENT, description: 'Use for anything sales or buying related.', issue_category: 'SALES' },
      {
        to: HUMAN_AGENT,
        tool: 'escalate_to_human',
        kind: 'escalation',
        description: 'Only call this if explicitly asked to.',
        issue_category: 'HUMAN_REQUESTED',
      },
    ],
    handlers: { PROVIDE_INFORMATION: relayAnswer },
  });
}
