import { describe, expect, it } from 'vitest';
import type { UserInteraction } from '@baton/protocol';
import { decideTransfer } from './decide-transfer.js';

const history: UserInteraction[] = [
  {
    type: 'CHAT_MESSAGE',
    sender: 'User',
    content: 'My internet keeps dropping every hour.',
    timestamp: '2023-10-27T10:21:00.000Z',
  },
  {
    type: 'CHAT_MESSAGE',
    sender: 'Agent',
    content: 'Please restart your router and modem.',
    timestamp: '2023-10-27T10:23:00.000Z',
  },
];
const customer = { user_id: '[email protected]', name: 'John Doe', contact_number: '+1-555-123-4567' };

describe('decideTransfer', () => {
  it('escalates a network fault to technical support, with the level-3 experts as its escalation target', () => {
    const decision = decideTransfer({
      data: {
        issue_category: 'GENERAL_SUPPORT',
        task_summary: 'Customer reports unstable internet.',
        customer_info: customer,
        attributes: { router_model: 'RouterX-Pro', isp: 'GlobalNet', order_id: 42 },
      },
      priority: 'HIGH',
      history,
    });
    expect(decision).toEqual({
      kind: 'escalate',
      handoff: {
        to: 'technical_support_agent_pool',
        handoff_type: 'ESCALATION',
        data: {
          issue_category: 'NETWORK_CONNECTIVITY',
          severity: 'HIGH',
          customer_info: customer,
          technical_details: {
            router_model: 'RouterX-Pro',
            isp: 'GlobalNet',
            symptoms: 'Customer reports unstable internet. / My internet keeps dropping every hour.',
          },
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
          failure_handling_strategy: {
            escalate_to: 'level3_network_expert_agent_pool',
            fallback_action: 'notify_customer_of_delay',
          },
        },
      },
    });
  });

  it('takes the severity from the priority and leaves out device facts nobody collected', () => {
    const decision = decideTransfer({
      data: { issue_category: 'NETWORK_CONNECTIVITY', task_summary: 'No connection.', customer_info: customer },
      priority: 'CRITICAL',
      history: undefined,
    });
    expect(decision.kind === 'escalate' && decision.handoff.data).toEqual({
      issue_category: 'NETWORK_CONNECTIVITY',
      severity: 'CRITICAL',
      customer_info: customer,
      technical_details: { symptoms: 'No connection.' },
    });
  });

  it('asks a customer it cannot name to identify themselves instead of escalating', () => {
    expect(
      decideTransfer({
        data: { issue_category: 'GENERAL_SUPPORT', task_summary: 'Internet is down.' },
        priority: 'MEDIUM',
        history: undefined,
      }),
    ).toEqual({
      kind: 'identify',
      reply:
        'To pass your connection problem to technical support we need your account: please send the e-mail address or customer number it is registered under.',
    });
  });

  it('answers anything else itself and completes', () => {
    expect(
      decideTransfer({
        data: {
          issue_category: 'GENERAL_SUPPORT',
          task_summary: 'I can’t log in to my account.',
          customer_info: customer,
        },
        priority: 'MEDIUM',
        history: undefined,
      }),
    ).toEqual({
      kind: 'answer',
      reply:
        'Thank you for contacting customer service. We have taken care of your request: I can’t log in to my account.',
      summary: 'Handled by customer service: not a network issue.',
    });
  });
});
