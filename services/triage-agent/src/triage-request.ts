import type { NextHandoff } from '@baton/agent-sdk';
import type { CustomerInfo, Immutable, JsonObject, Priority, TaskTransferData, UserInteraction } from '@baton/protocol';
import { classifyRequest, type Classification } from './classify-request.js';

export const SALES_AGENT = 'sales_agent';
export const ISSUES_AND_REPAIRS_AGENT = 'issues_and_repairs_agent';
export const TECHNICAL_SUPPORT = 'technical_support_agent_pool';
export const LEVEL3_NETWORK_EXPERTS = 'level3_network_expert_agent_pool';
export const HUMAN_AGENT = 'human_agent';

export interface TriageFacts {
  data: Immutable<TaskTransferData>;
  priority: Priority;
  history: Immutable<UserInteraction[]> | undefined;
}

export type TriageDecision =
  | { kind: 'transfer'; handoff: NextHandoff<'TASK_TRANSFER'> }
  | { kind: 'escalate'; handoff: NextHandoff<'ESCALATION'>; reply?: string }
  | { kind: 'reply'; reply: string; summary: string };

export const REPHRASE_REPLY =
  'Sorry, I did not catch that. Would you like to buy something, get something repaired or refunded, or is your internet connection the trouble?';

export const HUMAN_REPLY = 'I have asked a supervisor to take over; they will answer you here.';

const USER_SENDERS = new Set(['user', 'customer']);

/** The customer's own words: the request, then what they said earlier in the conversation. */
export function customerWords(data: Immutable<TaskTransferData>, history: TriageFacts['history']): string[] {
  const said = (history ?? [])
    .filter((entry) => USER_SENDERS.has(entry.sender.toLowerCase()))
    .map((entry) => entry.content);
  return [...new Set([data.task_summary, ...said])];
}

/**
 * Triage, by keywords instead of a model:
 * - buying goes to sales_agent and refunds and faults to issues_and_repairs_agent, as
 *   TASK_TRANSFERs that keep the customer's summary, customer_info and attributes;
 * - a network fault goes to technical support as an ESCALATION (severity = the task's priority, the
 *   customer's words as symptoms) whose failure_handling_strategy names the level-3 experts;
 * - an explicit ask for a person is escalated to human_agent (an escalate_to_human);
 * - escalations need the customer's identity (ESCALATION data requires customer_info), so without
 *   it the customer is asked for it; anything unrecognised is asked to be rephrased. Both complete
 *   the task here: the customer's next message starts triage again.
 */
export function triageRequest({ data, priority, history }: TriageFacts): TriageDecision {
  const words = customerWords(data, history);
  const match = classifyRequest(words);
  if (match === undefined) {
    return { kind: 'reply', reply: REPHRASE_REPLY, summary: 'Request not recognised; asked the customer to rephrase.' };
  }
  const action = {
    action_type: 'TRIAGE',
    details: `Classified the request as ${match.category} (the customer said "${match.keyword}").`,
  };
  switch (match.category) {
    case 'SALES':
      return { kind: 'transfer', handoff: transfer(data, SALES_AGENT, 'SALES', 'SalesAgent', action) };
    case 'REFUND':
    case 'REPAIR':
      return {
        kind: 'transfer',
        handoff: transfer(data, ISSUES_AND_REPAIRS_AGENT, match.category, 'IssuesAndRepairsAgent', action),
      };
    case 'NETWORK_CONNECTIVITY':
    case 'HUMAN':
      return escalation(data, priority, words, match, action);
  }
}

const TRANSFER_REASONS: Record<'SALES' | 'REFUND' | 'REPAIR', string> = {
  SALES: 'The customer wants to buy something.',
  REFUND: 'The customer wants a refund.',
  REPAIR: 'The customer reports a fault.',
};

function transfer(
  data: Immutable<TaskTransferData>,
  to: string,
  category: 'SALES' | 'REFUND' | 'REPAIR',
  desiredAgentType: string,
  action: NextHandoff['action'],
): NextHandoff<'TASK_TRANSFER'> {
  return {
    to,
    handoff_type: 'TASK_TRANSFER',
    data: {
      issue_category: category,
      task_summary: data.task_summary,
      transfer_reason: TRANSFER_REASONS[category],
      desired_agent_type: desiredAgentType,
      ...(data.customer_info === undefined ? {} : { customer_info: { ...data.customer_info } }),
      ...(data.attributes === undefined ? {} : { attributes: structuredClone(data.attributes) as JsonObject }),
    },
    action,
    workflow_state: 'TRIAGED',
  };
}

function escalation(
  data: Immutable<TaskTransferData>,
  priority: Priority,
  words: string[],
  match: Classification,
  action: NextHandoff['action'],
): TriageDecision {
  const network = match.category === 'NETWORK_CONNECTIVITY';
  if (data.customer_info === undefined) {
    const who = network ? 'technical support' : 'a supervisor';
    return {
      kind: 'reply',
      reply: `To pass you to ${who} we need your account: please send the customer number or e-mail address it is registered under.`,
      summary: `Escalation to ${who} needs the customer's identity; asked the customer for it.`,
    };
  }
  const customer: CustomerInfo = { ...data.customer_info };
  const said = words.join(' / ');
  if (network) {
    return {
      kind: 'escalate',
      handoff: {
        to: TECHNICAL_SUPPORT,
        handoff_type: 'ESCALATION',
        data: {
          issue_category: 'NETWORK_CONNECTIVITY',
          severity: priority,
          customer_info: customer,
          technical_details: { symptoms: said },
        },
        action,
        instructions: { failure_handling_strategy: { escalate_to: LEVEL3_NETWORK_EXPERTS } },
      },
    };
  }
  return {
    kind: 'escalate',
    handoff: {
      to: HUMAN_AGENT,
      handoff_type: 'ESCALATION',
      data: {
        issue_category: 'HUMAN_REQUESTED',
        severity: priority,
        customer_info: customer,
        technical_details: { user_request: said },
      },
      action,
      instructions: {},
    },
    reply: HUMAN_REPLY,
  };
}
