import type { AgentHandler } from '@baton/agent-sdk';
import type { Immutable, ProvideInformationData } from '@baton/protocol';

export const DEFAULT_HUMAN_REPLY = 'A supervisor has reviewed your request.';

/**
 * What the customer is told when the human agent answers an escalation triage sent: the
 * operator's note when there is one, since it is written for the customer's case.
 */
export function relayHumanAnswer(data: Immutable<ProvideInformationData>): string {
  const note = data.provided_info.note;
  return typeof note === 'string' && note.trim() !== '' ? `A supervisor writes: ${note.trim()}` : DEFAULT_HUMAN_REPLY;
}

/** Triage's PROVIDE_INFORMATION: the human agent's answer to its escalation goes to the customer. */
export const relayAnswer: AgentHandler<'PROVIDE_INFORMATION'> = (handoff, act) => {
  act.replyToUser(relayHumanAnswer(handoff.payload.data));
  act.complete(`Relayed ${handoff.metadata.sender_id}'s answer to the customer.`);
};
