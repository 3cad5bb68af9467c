import type { NextHandoff } from '@baton/agent-sdk';
import type { Immutable, JsonObject, TaskTransferData } from '@baton/protocol';
import { lookUpItem } from './look-up-item.js';
import { readRefundAmount, type RefundAmount } from './refund-amount.js';
import type { RefundPolicy } from './refund-policy.js';

export const HUMAN_AGENT = 'human_agent';
export const TRIAGE_AGENT = 'triage_agent';

/** The arguments of the execute_refund(item_id, reason) tool, as recorded in the ledger. */
export interface Refund {
  item_id: string;
  reason: string;
}

export type IssueDecision =
  | { kind: 'refund'; refund: Refund; reply: string; summary: string }
  | { kind: 'approval'; handoff: NextHandoff<'APPROVAL_REQUEST'>; reply: string }
  | { kind: 'repair'; reply: string; summary: string }
  | { kind: 'hand-back'; handoff: NextHandoff<'TASK_TRANSFER'> };

export const REPAIR_REPLY =
  'Sorry about the trouble. Please try this first: switch it off and unplug it for 30 seconds, check its cables and connectors for damage, then switch it on again. If it still does not work, tell us and we will refund it.';

const REFUND_CATEGORIES = new Set(['REFUND', 'RETURN']);

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * The issues and repairs agent, without the probing questions:
 * - REPAIR gets a fix to try ("propose a fix"), and the task completes;
 * - REFUND (or RETURN) finds the item (attributes.item_id, else look_up_item on attributes.product
 *   or the summary) and executes the refund, with attributes.reason or the summary as the reason,
 *   when the amount is absent or at most the automatic limit in US dollars; an amount above the
 *   limit, in another currency or unreadable goes to human_agent as an APPROVAL_REQUEST whose
 *   justification is the reason and whose subject is the item;
 * - anything else goes back to triage (a transfer_back_to_triage).
 */
export function handleIssue(data: Immutable<TaskTransferData>, policy: RefundPolicy): IssueDecision {
  if (data.issue_category === 'REPAIR') {
    return { kind: 'repair', reply: REPAIR_REPLY, summary: 'Proposed a fix: power cycle, check cables, restart.' };
  }
  if (!REFUND_CATEGORIES.has(data.issue_category)) return handBack(data);
  const attributes: Immutable<JsonObject> = data.attributes ?? {};
  const givenId = text(attributes.item_id);
  const query = text(attributes.product) ?? data.task_summary;
  const itemId = givenId ?? lookUpItem(query);
  const refund: Refund = { item_id: itemId, reason: text(attributes.reason) ?? data.task_summary };
  const amount = readRefundAmount(attributes.amount);
  const why = approvalNeeded(amount, policy);
  if (why === undefined) {
    return {
      kind: 'refund',
      refund,
      reply: `Your refund for ${itemId} has been processed.`,
      summary: `Refund executed for ${itemId}.`,
    };
  }
  const found = givenId === undefined ? `look_up_item("${query}") found ${itemId}` : `the customer named ${itemId}`;
  return {
    kind: 'approval',
    handoff: {
      to: HUMAN_AGENT,
      handoff_type: 'APPROVAL_REQUEST',
      data: {
        action: 'EXECUTE_REFUND',
        justification: refund.reason,
        issue_category: 'REFUND',
        subject_id: itemId,
        ...(amount.kind === 'known' ? { amount: { value: amount.value, currency: amount.currency } } : {}),
        approver_role: 'HUMAN_SUPERVISOR',
        ...(data.customer_info === undefined ? {} : { customer_info: { ...data.customer_info } }),
      },
      action: {
        action_type: givenId === undefined ? 'LOOK_UP_ITEM' : 'CHECK_REFUND_LIMIT',
        details: `${found}; ${why}.`,
      },
      workflow_state: 'AWAITING_APPROVAL',
      instructions: {
        required_actions: ['APPROVE_OR_DENY_REFUND'],
        next_steps_suggestion: `Approve or deny the refund of ${itemId}: ${why}.`,
      },
    },
    reply: `Your refund for ${itemId} needs a supervisor's approval; we will let you know here.`,
  };
}

function approvalNeeded(amount: RefundAmount, policy: RefundPolicy): string | undefined {
  switch (amount.kind) {
    case 'none':
      return undefined;
    case 'unreadable':
      return 'the refund amount could not be read';
    case 'known':
      if (amount.currency !== 'USD') return `refunds in ${amount.currency} are not executed automatically`;
      return amount.value > policy.autoLimitUsd
        ? `${amount.value} USD is above the automatic refund limit of ${policy.autoLimitUsd} USD`
        : undefined;
  }
}

function handBack(data: Immutable<TaskTransferData>): IssueDecision {
  return {
    kind: 'hand-back',
    handoff: {
      to: TRIAGE_AGENT,
      handoff_type: 'TASK_TRANSFER',
      data: {
        ...(structuredClone(data) as TaskTransferData),
        transfer_reason: `${data.issue_category} is outside issues and repairs' purview.`,
      },
      action: { action_type: 'TRANSFER_BACK_TO_TRIAGE', details: `Not an issue or repair: ${data.issue_category}.` },
    },
  };
}
