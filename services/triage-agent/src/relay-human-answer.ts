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
