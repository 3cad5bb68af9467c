import type { RouteDecision, RoutableMessage } from '../routing/route-handoff.js';
import { RECIPIENT_RULE_ID, DEFAULT_RULE_ID, DISCOVERY_RULE_ID } from '../routing/routing-table.js';
import { senderMay, type SenderPolicy } from './sender-policy.js';

export type Authorization =
  { kind: 'allowed' } | { kind: 'refused'; sender: string; handoffType: string; recipient: string; reason: string };

type Routed = Extract<RouteDecision, { kind: 'routed' }>;

/**
 * Whether `policy` lets the handoff's metadata.sender_id send its handoff_type to every agent the
 * routing decision chose, a fallback included. The sender_id is the identity the codecs verified
 * when message signatures are required; with signatures off it is only what the sender claims.
 * One refused target refuses the whole handoff, as the router dispatches to all targets or none.
 */
export function authorizeDispatch(policy: SenderPolicy, message: RoutableMessage, decision: Routed): Authorization {
  const sender = message.metadata.sender_id;
  const handoffType = message.payload.handoff_type;
  const recipient = decision.targets.find((target) => !senderMay(policy, sender, handoffType, target));
  if (recipient === undefined) return { kind: 'allowed' };
  return {
    kind: 'refused',
    sender,
    handoffType,
    recipient,
    reason:
      `sender "${sender}" may not send ${handoffType} to "${recipient}" (${routedBy(decision)}): ` +
      'no rule of the sender policy allows it',
  };
}

function routedBy({ ruleId, fallbackFor }: Routed): string {
  const step = [RECIPIENT_RULE_ID, DEFAULT_RULE_ID, DISCOVERY_RULE_ID].includes(ruleId)
    ? `routed by ${ruleId}`
    : `routed by rule ${ruleId}`;
  const names = fallbackFor?.map((agent) => `"${agent}"`).join(', ');
  return names === undefined ? step : `${step}, the fallback standing in for ${names}`;
}
