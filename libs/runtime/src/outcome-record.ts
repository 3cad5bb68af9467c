import { randomUUID } from 'node:crypto';
import type { OutputRecord } from '@baton/kafka';
import type { HandoffOutcome, HandoffOutcomeKind } from '@baton/protocol';
import type { OutcomeCodec } from '@baton/wire';
import type { Handoff } from './handoff-processor.js';
import { issueCategoryOf } from './handoff-labels.js';

/** Outcome events' CloudEvents type: `baton.outcome.COMPLETED` and so on. */
export const OUTCOME_EVENT_TYPE_PREFIX = 'baton.outcome.';

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
  const event: HandoffOutcome = {
    event_id: randomUUID(),
    time: now.toISOString(),
    task_id: handoff.metadata.task_id,
    message_id: handoff.metadata.message_id,
    agent_id: facts.agentId,
    handoff_type: handoff.payload.handoff_type,
    sender_id: handoff.metadata.sender_id,
    recipient_id: [handoff.metadata.recipient_id].flat().join(','),
    outcome: facts.outcome,
    ...(handoff.metadata.correlation_id === undefined ? {} : { correlation_id: handoff.metadata.correlation_id }),
    ...(issueCategoryOf(handoff) === undefined ? {} : { issue_category: issueCategoryOf(handoff) }),
    ...(facts.target === undefined ? {} : { target: facts.target }),
    ...(facts.detail === undefined ? {} : { detail: facts.detail }),
    ...(facts.errorCode === undefined ? {} : { error_code: facts.errorCode }),
    ...(handoff.metadata.parent_task_ids === undefined
      ? {}
      : { parent_task_ids: [...handoff.metadata.parent_task_ids] }),
    workflow_state: handoff.context.workflow_state,
  };
  return {
    topic,
    key: event.task_id,
    value: codec.encode(event),
    headers: {
      ce_specversion: '1.0',
      ce_id: event.event_id,
      ce_type: `${OUTCOME_EVENT_TYPE_PREFIX}${event.outcome}`,
      ce_source: event.agent_id,
      ce_subject: event.task_id,
      ce_time: event.time,
    },
  };
}
