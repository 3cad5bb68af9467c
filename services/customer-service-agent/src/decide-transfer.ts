import type { NextHandoff } from '@baton/agent-sdk';
import type { CustomerInfo, Immutable, Priority, TaskTransferData, UserInteraction } from '@baton/protocol';
import { customerWords, isNetworkComplaint } from './network-complaint.js';

export const TECHNICAL_SUPPORT = 'technical_support_agent_pool';
export const LEVEL3_NETWORK_EXPERTS = 'level3_network_expert_agent_pool';

export interface TransferFacts {
  data: Immutable<TaskTransferData>;
  priority: Priority;
  history: Immutable<UserInteraction[]> | undefined;
}

export type TransferDecision =
  | { kind: 'escalate'; handoff: NextHandoff<'ESCALATION'> }
  | { kind: 'answer'; reply: string; summary: string }
  | { kind: 'identify'; reply: string };

/**
 * What customer service does with a transferred task:
 * - a network fault gets basic troubleshooting, then goes up to technical support as an
 *   ESCALATION (NETWORK_CONNECTIVITY, severity = the task's priority, the customer's words as
 *   symptoms) whose failure_handling_strategy names the level-3 network experts;
 * - a network fault from a customer we cannot name is not escalated, since technical support
 *   must be able to reach them: the customer is asked to identify themselves;
 * - anything else is answered here and the task completes.
 */
export function decideTransfer({ data, priority, history }: TransferFacts): TransferDecision {
  if (!isNetworkComplaint(data, history)) {
    return {
      kind: 'answer',
      reply: `Thank you for contacting customer service. We have taken care of your request: ${data.task_summary}`,
      summary: 'Handled by customer service: not a network issue.',
    };
  }
  const customer = data.customer_info;
  if (customer === undefined) {
    return {
      kind: 'identify',
      reply:
        'To pass your connection problem to technical support we need your account: please send the e-mail address or customer number it is registered under.',
    };
  }
  return { kind: 'escalate', handoff: supportEscalation(data, customer, priority, history) };
}

function supportEscalation(
  data: Immutable<TaskTransferData>,
  customer: Immutable<CustomerInfo>,
  priority: Priority,
  history: Immutable<UserInteraction[]> | undefined,
): NextHandoff<'ESCALATION'> {
  const symptoms = [...new Set([data.task_summary, ...customerWords(history)])].join(' / ');
  return {
    to: TECHNICAL_SUPPORT,
    handoff_type: 'ESCALATION',
    data: {
      issue_category: 'NETWORK_CONNECTIVITY',
      severity: priority,
      customer_info: { ...customer },
      technical_details: { ...deviceFacts(data), symptoms },
    },
    action: {
      action_type: 'DIAGNOSTIC_ATTEMPT',
      details: 'Attempted basic troubleshooting of the network connectivity issue; it needs technical support.',
    },
    workflow_state: 'CUSTOMER_ISSUE_ESCALATED',
    instructions: {
      next_steps_suggestion: 'Please run a remote diagnostic of the customer’s line and contact the customer.',
      required_actions: ['DIAGNOSE_ROOT_CAUSE', 'COMMUNICATE_SOLUTION_TO_CUSTOMER'],
      constraints: { time_limit: 'PT2H' },
      success_criteria: 'Root cause identified and communicated to customer.',
      failure_handling_strategy: { escalate_to: LEVEL3_NETWORK_EXPERTS, fallback_action: 'notify_customer_of_delay' },
    },
  };
}

/** The router model and ISP, when whoever transferred the task collected them as attributes. */
function deviceFacts(data: Immutable<TaskTransferData>): { router_model?: string; isp?: string } {
  const { router_model: routerModel, isp } = data.attributes ?? {};
  return {
    ...(typeof routerModel === 'string' ? { router_model: routerModel } : {}),
    ...(typeof isp === 'string' ? { isp } : {}),
  };
}
