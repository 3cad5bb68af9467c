import { describe, expect, it } from 'vitest';
import type { TaskTransferData } from '@baton/protocol';
import { REPAIR_REPLY, handleIssue } from './handle-issue.js';
import { lookUpItem } from './look-up-item.js';

const policy = { autoLimitUsd: 100 };
const bob = { user_id: 'cust-2002', name: 'Bob Jones' };

function issue(issue_category: string, task_summary: string, extra: Partial<TaskTransferData> = {}): TaskTransferData {
  return { issue_category, task_summary, ...extra };
}

describe('handleIssue', () => {
  it('refunds at once when no amount is stated, finding the item from the summary', () => {
    const itemId = lookUpItem('The shoes I bought are broken, I want a refund');
    expect(handleIssue(issue('REFUND', 'The shoes I bought are broken, I want a refund'), policy)).toEqual({
      kind: 'refund',
      refund: { item_id: itemId, reason: 'The shoes I bought are broken, I want a refund' },
      reply: `Your refund for ${itemId} has been processed.`,
      summary: `Refund executed for ${itemId}.`,
    });
  });

  it('refunds at once up to the limit, looking up attributes.product with attributes.reason', () => {
    const decision = handleIssue(
      issue('RETURN', 'Refund please', { attributes: { product: 'shoes', reason: 'too small', amount: 100 } }),
      policy,
    );
    expect(decision).toMatchObject({ kind: 'refund', refund: { item_id: lookUpItem('shoes'), reason: 'too small' } });
  });

  it('asks the human agent to approve a refund above the limit', () => {
    const decision = handleIssue(
      issue('REFUND', 'My blender arrived broken', {
        customer_info: bob,
        attributes: { product: 'blender', amount: { value: 249.99, currency: 'USD' } },
      }),
      policy,
    );
    const itemId = lookUpItem('blender');
    expect(decision).toEqual({
      kind: 'approval',
      handoff: {
        to: 'human_agent',
        handoff_type: 'APPROVAL_REQUEST',
        data: {
          action: 'EXECUTE_REFUND',
          justification: 'My blender arrived broken',
          issue_category: 'REFUND',
          subject_id: itemId,
          amount: { value: 249.99, currency: 'USD' },
          approver_role: 'HUMAN_SUPERVISOR',
          customer_info: bob,
        },
        action: {
          action_type: 'LOOK_UP_ITEM',
          details: `look_up_item("blender") found ${itemId}; 249.99 USD is above the automatic refund limit of 100 USD.`,
        },
        workflow_state: 'AWAITING_APPROVAL',
        instructions: {
          required_actions: ['APPROVE_OR_DENY_REFUND'],
          next_steps_suggestion: `Approve or deny the refund of ${itemId}: 249.99 USD is above the automatic refund limit of 100 USD.`,
        },
      },
      reply: `Your refund for ${itemId} needs a supervisor's approval; we will let you know here.`,
    });
  });

  it('uses the item id the customer gave, and asks approval for other currencies and unreadable amounts', () => {
    const euros = handleIssue(
      issue('REFUND', 'Refund', { attributes: { item_id: 'item_000000042', amount: { value: 5, currency: 'EUR' } } }),
      policy,
    );
    expect(euros.kind === 'approval' && euros.handoff.action).toEqual({
      action_type: 'CHECK_REFUND_LIMIT',
      details: 'the customer named item_000000042; refunds in EUR are not executed automatically.',
    });
    const unreadable = handleIssue(issue('REFUND', 'Refund', { attributes: { amount: 'a lot' } }), policy);
    expect(unreadable.kind === 'approval' && unreadable.handoff.data).toEqual({
      action: 'EXECUTE_REFUND',
      justification: 'Refund',
      issue_category: 'REFUND',
      subject_id: lookUpItem('Refund'),
      approver_role: 'HUMAN_SUPERVISOR',
    });
  });

  it('asks approval for every stated amount when the limit is zero', () => {
    expect(handleIssue(issue('REFUND', 'Refund', { attributes: { amount: 0.01 } }), { autoLimitUsd: 0 }).kind).toBe(
      'approval',
    );
  });

  it('proposes a fix for a repair', () => {
    expect(handleIssue(issue('REPAIR', 'My kettle is broken'), policy)).toEqual({
      kind: 'repair',
      reply: REPAIR_REPLY,
      summary: 'Proposed a fix: power cycle, check cables, restart.',
    });
  });

  it('hands anything else back to triage', () => {
    const data = issue('SALES', 'I want to buy an anvil', { customer_info: bob });
    expect(handleIssue(data, policy)).toEqual({
      kind: 'hand-back',
      handoff: {
        to: 'triage_agent',
        handoff_type: 'TASK_TRANSFER',
        data: { ...data, transfer_reason: "SALES is outside issues and repairs' purview." },
        action: { action_type: 'TRANSFER_BACK_TO_TRIAGE', details: 'Not an issue or repair: SALES.' },
      },
    });
  });
});
