import { BatonError } from '@baton/errors';
import type { Immutable, ProvideInformationData } from '@baton/protocol';
import { HUMAN_AGENT, type Refund } from './handle-issue.js';

export type AnswerDecision =
  | { kind: 'refund'; refund: Refund; reply: string; summary: string }
  | { kind: 'denied'; reply: string; summary: string };

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * The human agent's answer to a refund approval request. The answer carries the request it
 * decides (provided_info.request: the APPROVAL_REQUEST's data), so the refund executed is exactly
 * the one the operator saw: its subject is the item and its justification the reason. Anything
 * else is refused as VALIDATION_FAILED, which dead-letters the message: an approval this agent
 * cannot read must not move money.
 */
export function refundAnswer(senderId: string, data: Immutable<ProvideInformationData>): AnswerDecision {
  const fail = (message: string): never => {
    throw new BatonError('VALIDATION_FAILED', `not a refund decision: ${message}`, {
      path: '/payload/data/provided_info',
    });
  };
  if (senderId !== HUMAN_AGENT) fail(`sent by ${senderId}, not ${HUMAN_AGENT}`);
  const { decision, note, request } = data.provided_info as { decision?: unknown; note?: unknown; request?: unknown };
  if (decision !== 'APPROVED' && decision !== 'DENIED') fail('decision is neither APPROVED nor DENIED');
  const approval = (typeof request === 'object' && request !== null ? request : {}) as Record<string, unknown>;
  if (approval.action !== 'EXECUTE_REFUND') fail('the request decided is not EXECUTE_REFUND');
  const itemId = text(approval.subject_id) ?? fail('the request names no item (subject_id)');
  const reason = text(approval.justification) ?? fail('the request has no justification');
  if (decision === 'DENIED') {
    const because = text(note);
    return {
      kind: 'denied',
      reply: `A supervisor could not approve your refund for ${itemId}.${because === undefined ? '' : ` ${because}`}`,
      summary: `Refund for ${itemId} denied by ${HUMAN_AGENT}.`,
    };
  }
  return {
    kind: 'refund',
    refund: { item_id: itemId, reason },
    reply: `A supervisor approved your refund for ${itemId}; it has been processed.`,
    summary: `Refund executed for ${itemId}, approved by ${HUMAN_AGENT}.`,
  };
}
