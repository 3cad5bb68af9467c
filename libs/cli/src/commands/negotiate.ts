import type { AcceptedNegotiation, NegotiationRequest } from '@baton/gateway-api';
import { stringOption, type OptionValue } from '../args.js';
import type { Command } from '../context.js';
import { CliError, EXIT, usageError } from '../errors.js';
import { formatFields } from '../format.js';
import { buildFromJson, readHandoffInput } from './handoff-input.js';

/** The gateway's bound on desired_agent_type and reason. */
const MAX_TEXT_LENGTH = 1_000;

/** A required option's text: present, not blank, at most MAX_TEXT_LENGTH characters; a USAGE error otherwise. */
function requiredText(options: Record<string, OptionValue>, name: string): string {
  const text = stringOption(options, name);
  if (text === undefined || text.trim() === '') throw usageError(`negotiate needs --${name}`);
  if (text.length > MAX_TEXT_LENGTH) {
    throw usageError(`--${name} must be at most ${MAX_TEXT_LENGTH} characters, not ${text.length}`);
  }
  return text;
}

/** A negotiation asks one agent: a handoff to several (or none) is refused before anything is sent. */
function checkSoleRecipient(handoff: { metadata: { recipient_id: string | readonly string[] } }, name: string) {
  const recipients = [handoff.metadata.recipient_id].flat();
  if (recipients.length !== 1) {
    const path = '/metadata/recipient_id';
    throw new CliError('VALIDATION_FAILED', `${name}: a negotiated handoff names exactly one recipient; nothing sent`, {
      exitCode: EXIT.USAGE,
      path,
      issues: [{ code: 'FIELD_INVALID', path, message: `names ${recipients.length} recipients, not 1` }],
    });
  }
}

function formatAcceptedNegotiation(accepted: AcceptedNegotiation): string[] {
  return formatFields([
    ['negotiation_id', accepted.negotiation_id],
    ['task_id', accepted.task_id],
    ['receiver', accepted.receiver],
    ['context', accepted.context_mode],
  ]);
}

/**
 * `baton negotiate [FILE|-] --desired-agent-type TYPE --reason TEXT`: validate the handoff locally,
 * then POST /v1/negotiations, which asks its recipient to take it over.
 */
export const negotiate: Command = async (context) => {
  const desired = requiredText(context.options, 'desired-agent-type');
  const reason = requiredText(context.options, 'reason');
  const [name, text] = await readHandoffInput(context.operands[0], context, 'negotiate');
  const handoff = buildFromJson(text, name, 'nothing sent');
  checkSoleRecipient(handoff, name);
  const request: NegotiationRequest = { handoff: { ...handoff }, desired_agent_type: desired, reason };
  const accepted = await context.gateway().post<AcceptedNegotiation>('/v1/negotiations', request);
  if (context.json) return context.printJson(accepted);
  context.print(formatAcceptedNegotiation(accepted));
  context.note(`follow it with: baton task ${accepted.task_id}`);
};
