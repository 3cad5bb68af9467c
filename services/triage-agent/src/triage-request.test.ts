import { describe, expect, it } from 'vitest';
import type { TaskTransferData, UserInteraction } from '@baton/protocol';
import { HUMAN_REPLY, REPHRASE_REPLY, customerWords, triageRequest } from './triage-request.js';

const alice = { user_id: 'cust-1001', name: 'Alice Smith' };

function said(content: string, sender = 'User'): UserInteraction {
  return { type: 'CHAT_MESSAGE', sender, content, timestamp: '2026-11-21T08:59:50.000Z' };
}

function request(task_summary: string, extra: Partial<TaskTransferData> = {}): TaskTransferData {
  return { issue_category: 'UNCLASSIFIED', task_summary, ...extra };
}

describe('customerWords', () => {
  it('takes the request and the customer’s earlier messages, not the agents’, once each', () => {
    const history = [said('I want a refund'), said('What item?', 'TriageAgent'), said('I want a refund', 'customer')];
    expect(customerWords(request('A pair of shoes I bought'), history)).toEqual([
      'A pair of shoes I bought',
      'I want a refund',
    ]);
  });
});

describe('triageRequest', () => {
  it('transfers a purchase to sales with the customer and attributes', () => {
    const data = request('I would like to buy the RouterX-Pro mesh kit', {
      customer_info: alice,
      attributes: { product: 'RouterX-Pro mesh kit', budget: { value: 299, currency: 'USD' } },
    });
    expect(triageRequest({ data, priority: 'MEDIUM', history: undefined })).toEqual({
      kind: 'transfer',
      handoff: {
        to: 'sales_agent',
        handoff_type: 'TASK_TRANSFER',
        data: {
          issue_category: 'SALES',
          task_summary: 'I would like to buy the RouterX-Pro mesh kit',
          transfer_reason: 'The customer wants to buy something.',
          desired_agent_type: 'SalesAgent',
          customer_info: alice,
          attributes: { product: 'RouterX-Pro mesh kit', budget: { value: 299, currency: 'USD' } },
        },
        action: { action_type: 'TRIAGE', details: 'Classified the request as SALES (the customer said "buy").' },
        workflow_state: 'TRIAGED',
      },
    });
  });

  it('transfers the sample refund conversation to issues and repairs as REFUND', () => {
    const decision = triageRequest({
      data: request('A pair of shoes I bought'),
      priority: 'MEDIUM',
      history: [said('I want a refund')],
    });
    expect(decision).toEqual({
      kind: 'transfer',
      handoff: {
        to: 'issues_and_repairs_agent',
        handoff_type: 'TASK_TRANSFER',
        data: {
          issue_category: 'REFUND',
          task_summary: 'A pair of shoes I bought',
          transfer_reason: 'The customer wants a refund.',
          desired_agent_type: 'IssuesAndRepairsAgent',
        },
        action: { action_type: 'TRIAGE', details: 'Classified the request as REFUND (the customer said "refund").' },
        workflow_state: 'TRIAGED',
      },
    });
  });

  it('transfers a fault as REPAIR', () => {
    const decision = triageRequest({ data: request('My kettle is broken'), priority: 'LOW', history: [] });
    expect(decision.kind === 'transfer' && decision.handoff).toMatchObject({
      to: 'issues_and_repairs_agent',
      data: { issue_category: 'REPAIR', transfer_reason: 'The customer reports a fault.' },
    });
  });

  it('escalates a network fault to technical support, naming the level-3 experts for failures', () => {
    const decision = triageRequest({
      data: request('My internet keeps dropping', { customer_info: alice }),
      priority: 'HIGH',
      history: [said('It started yesterday')],
    });
    expect(decision).toEqual({
      kind: 'escalate',
      handoff: {
        to: 'technical_support_agent_pool',
        handoff_type: 'ESCALATION',
        data: {
          issue_category: 'NETWORK_CONNECTIVITY',
          severity: 'HIGH',
          customer_info: alice,
          technical_details: { symptoms: 'My internet keeps dropping / It started yesterday' },
        },
        action: {
          action_type: 'TRIAGE',
          details: 'Classified the request as NETWORK_CONNECTIVITY (the customer said "internet").',
        },
        instructions: { failure_handling_strategy: { escalate_to: 'level3_network_expert_agent_pool' } },
      },
    });
  });

  it('escalates an explicit ask for a person to the human agent and tells the customer', () => {
    const decision = triageRequest({
      data: request('I want to talk to your manager', { customer_info: alice }),
      priority: 'MEDIUM',
      history: [said('I want a refund')],
    });
    expect(decision).toEqual({
      kind: 'escalate',
      handoff: {
        to: 'human_agent',
        handoff_type: 'ESCALATION',
        data: {
          issue_category: 'HUMAN_REQUESTED',
          severity: 'MEDIUM',
          customer_info: alice,
          technical_details: { user_request: 'I want to talk to your manager / I want a refund' },
        },
        action: { action_type: 'TRIAGE', details: 'Classified the request as HUMAN (the customer said "manager").' },
        instructions: {},
      },
      reply: HUMAN_REPLY,
    });
  });

  it('asks an unidentified customer who they are instead of escalating', () => {
    expect(triageRequest({ data: request('The wifi is down'), priority: 'HIGH', history: [] })).toEqual({
      kind: 'reply',
      reply:
        'To pass you to technical support we need your account: please send the customer number or e-mail address it is registered under.',
      summary: "Escalation to technical support needs the customer's identity; asked the customer for it.",
    });
  });

  it('asks the customer to rephrase what it does not recognise', () => {
    expect(triageRequest({ data: request('Hello!'), priority: 'MEDIUM', history: undefined })).toEqual({
      kind: 'reply',
      reply: REPHRASE_REPLY,
      summary: 'Request not recognised; asked the customer to rephrase.',
    });
  });
});
