import { encodeHeaderBlock, type OutputRecord } from '@baton/kafka';
import { HANDOFF_OUTCOMES, randomId, type HandoffOutcome, type HandoffOutcomeKind } from '@baton/protocol';
import type { OutcomeCodec } from '@baton/wire';
import type { Handoff } from './handoff.js';
import { issueCategoryOf } from './handoff-labels.js';

/** Outcome events' CloudEvents type: `baton.outcome.COMPLETED` and so on. */
export const OUTCOME_EVENT_TYPE_PREFIX = 'baton.outcome.';

/**
 * Each outcome's CloudEvents type header, one frozen object per outcome: the one header an
 * observer reads of an event (the outcome metrics), so the only one not in the encoded block.
 */
const OUTCOME_TYPE_HEADERS: Record<HandoffOutcomeKind, Readonly<Record<string, string>>> = Object.fromEntries(
  HANDOFF_OUTCOMES.map((outcome) => [
    outcome,
    Object.freeze<Record<string, string>>({ ce_type: `${OUTCOME_EVENT_TYPE_PREFIX}${outcome}` }),
  ]),
) as Record<HandoffOutcomeKind, Readonly<Record<string, string>>>;

/** The last time written and its ISO 8601 form. */
let isoMs = Number.NaN;
let isoText = '';

/**
 * `now` in ISO 8601, formatted once per millisecond: toISOString took 1.6 us, a sixth of an outcome
 * event's making, and a busy service writes several events in one millisecond.
 */
function isoTime(now: Date): string {
  const ms = now.getTime();
  if (ms !== isoMs) {
    isoText = now.toISOString();
    isoMs = ms;
  }
  return isoText;
}

export interface OutcomeFacts {
  agentId: string;
  outcome: HandoffOutcomeKind;
  target?: string;
  detail?: string;
  errorCode?: string;
}

/** The outcome event of `handoff` at a service, as a record for the events topic keyed by task_id. */
export function outcomeRecord(
  codec: OutcomeCodec,
  topic: string,
  handoff: Handoff,
  facts: OutcomeFacts,
  now: Date = new Date(),
): OutputRecord {
  const { metadata } = handoff;
  // Built field by field rather than with conditional spreads: every message a service handles
  // gets one, and each spread allocated an object of its own.
  const event: HandoffOutcome = {
    event_id: randomId(),
    time: isoTime(now),
    task_id: metadata.task_id,
    message_id: metadata.message_id,
    agent_id: facts.agentId,
    handoff_type: handoff.payload.handoff_type,
    sender_id: metadata.sender_id,
    recipient_id: typeof metadata.recipient_id === 'string' ? metadata.recipient_id : metadata.recipient_id.join(','),
    outcome: facts.outcome,
    workflow_state: handoff.context.workflow_state,
  };
  const issueCategory = issueCategoryOf(handoff);
  if (metadata.correlation_id !== undefined) event.correlation_id = metadata.correlation_id;
  if (issueCategory !== undefined) event.issue_category = issueCategory;
  if (facts.target !== undefined) event.target = facts.target;
  if (facts.detail !== undefined) event.detail = facts.detail;
  if (facts.errorCode !== undefined) event.error_code = facts.errorCode;
  if (metadata.parent_task_ids !== undefined) event.parent_task_ids = [...metadata.parent_task_ids];
  if (metadata.expiration_time !== undefined) event.expiration_time = metadata.expiration_time;
  const { value, headers: seal } = codec.encodeRecord(event);
  const typeHeaders = OUTCOME_TYPE_HEADERS[event.outcome] as Record<string, string>;
  return {
    topic,
    key: event.task_id,
    value,
    // Encoded now: the record is held until its transaction commits, and the headers' object and
    // the strings of its id and time were most of what an outcome event held.
    encodedHeaders: encodeHeaderBlock({
      ce_specversion: '1.0',
      ce_id: event.event_id,
      ce_source: event.agent_id,
      ce_subject: event.task_id,
      ce_time: event.time,
    }),
    // The seal is read by the tracker and the gateway, the type by every observer: both decoded.
    headers: seal === undefined ? typeHeaders : { ...typeHeaders, ...seal },
    headersAdded: true,
  };
}
