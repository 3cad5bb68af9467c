import type { AgentAction } from '@baton/agent-sdk';
import type { EscalationData, FailureHandlingStrategy, Immutable } from '@baton/protocol';
import { tier2Fix } from './tier2-playbook.js';

/** Where an escalation goes when its sender named no escalate_to: a person takes it. */
export const HUMAN_AGENT = 'human_agent';

// The reference escalation's fallback_action: the customer is told that resolving the task will take longer.
const NOTIFY_CUSTOMER_OF_DELAY = 'notify_customer_of_delay';
const DELAY_NOTICE =
  'Your connection problem needs a network specialist, so resolving it will take a little longer. We will be in touch as soon as we know more.';

// Drops that come and go survive the power cycle tier 2 can offer.
const INTERMITTENT = /\bintermittent\w*|\bdrop(?:s|ped|ping)?\b|\bcut(?:s|ting)? out\b/i;

export type EscalationDecision =
  | { kind: 'resolve'; reply: string; summary: string }
  | {
      kind: 'escalate';
      action: AgentAction;
      /** Set when the message names no escalate_to. */
      to?: string;
      /** What to tell the customer while a specialist works on it. */
      notice?: string;
    };

/**
 * Why an escalation is beyond tier 2, one reason per rule that holds: it is CRITICAL, it has
 * logs to analyse, or its symptoms describe intermittent drops. None means tier 2 resolves it.
 */
export function beyondTier2(data: Immutable<EscalationData>): string[] {
  const { logs_attached: logsAttached, log_references: logs = [], symptoms = '' } = data.technical_details;
  return [
    ...(data.severity === 'CRITICAL' ? ['severity is CRITICAL'] : []),
    ...(logsAttached === true && logs.length > 0 ? [`logs ${logs.join(', ')} need expert analysis`] : []),
    ...(INTERMITTENT.test(symptoms) ? ['symptoms describe intermittent drops'] : []),
  ];
}

/**
 * What technical support does with an escalation: a
 * fault beyond tier 2 gets a remote diagnostic and goes on to failure_handling_strategy.escalate_to
 * (to a human when there is none); any other fault is resolved with the playbook's fix.
 */
export function decideEscalation(
  data: Immutable<EscalationData>,
  strategy: Immutable<FailureHandlingStrategy> | undefined,
): EscalationDecision {
  const reasons = beyondTier2(data);
  if (reasons.length === 0) {
    const fix = tier2Fix(data.technical_details.symptoms);
    return { kind: 'resolve', reply: fix.reply, summary: `Resolved at tier 2: ${fix.id}.` };
  }
  return {
    kind: 'escalate',
    action: {
      action_type: 'REMOTE_DIAGNOSTIC',
      details: `Remote diagnostic run; beyond tier 2: ${reasons.join('; ')}.`,
    },
    ...(strategy?.escalate_to === undefined ? { to: HUMAN_AGENT } : {}),
    ...(strategy?.fallback_action === NOTIFY_CUSTOMER_OF_DELAY ? { notice: DELAY_NOTICE } : {}),
  };
}
