import {
  receiverStateText,
  type HandoffAttemptAnswer,
  type NegotiationAnswer,
  type TaskAnswer,
  type TimelineEvent,
} from '@baton/gateway-api';
import { formatTable, type Column } from '../format.js';

function joined(parts: readonly (string | undefined)[], separator: string): string {
  return parts.filter((part) => part !== undefined && part !== '').join(separator);
}

/** Outcome steps name the service that reported; lifecycle and staged steps the agent that wrote them. */
function agentOf(step: TimelineEvent): string {
  return step.kind === 'outcome' ? step.agent_id : step.sender;
}

/** What happened: the outcome, the lifecycle message's type (marked when refused), or `staged`. */
function stepOf(step: TimelineEvent): string {
  if (step.kind === 'outcome') return step.outcome;
  if (step.kind === 'staged') return 'staged';
  return step.refused === undefined ? step.message_type : `${step.message_type} (refused)`;
}

function routeOf(step: TimelineEvent): string | undefined {
  if (step.kind === 'staged') return undefined;
  if (step.sender === undefined && step.receiver === undefined) return undefined;
  return `${step.sender ?? '?'} -> ${step.receiver ?? '?'}`;
}

function detailOf(step: TimelineEvent): string {
  if (step.kind === 'outcome') return joined([step.error_code, step.detail], ': ');
  if (step.kind === 'staged') return step.detail;
  return joined([step.detail, step.refused?.message], '; ');
}

export const TIMELINE_COLUMNS: readonly Column<TimelineEvent>[] = [
  { header: 'TIME', value: (step) => step.time },
  { header: 'AGENT', value: agentOf },
  { header: 'STEP', value: stepOf },
  { header: 'TYPE', value: (step) => (step.kind === 'outcome' ? step.handoff_type : undefined) },
  { header: 'ROUTE', value: routeOf },
  { header: 'TARGET', value: (step) => (step.kind === 'outcome' ? step.target : undefined) },
  { header: 'MESSAGE_ID', value: (step) => step.message_id },
  { header: 'DETAIL', value: detailOf },
];

/** One step as one line, its columns' values in their order: what `baton task --follow` prints. */
export function formatTimelineStep(step: TimelineEvent): string {
  return TIMELINE_COLUMNS.map((column) => column.value(step))
    .filter((value) => value !== undefined && value !== '')
    .join('  ');
}

/** Why an attempt ended: completed, rejected, failed; nothing while it is under way. */
function attemptEnd(attempt: HandoffAttemptAnswer): string | undefined {
  if (attempt.completed_at !== undefined) return 'completed';
  if (attempt.rejection !== undefined) {
    const { reason, suggestions } = attempt.rejection;
    return `rejected: ${reason}${suggestions.length === 0 ? '' : `; suggests ${suggestions.join(', ')}`}`;
  }
  if (attempt.failure !== undefined) return `${attempt.failure.code}: ${attempt.failure.message}`;
  return undefined;
}

export const ATTEMPT_COLUMNS: readonly Column<HandoffAttemptAnswer>[] = [
  { header: 'RECEIVER', value: (attempt) => attempt.receiver },
  { header: 'VIA', value: (attempt) => attempt.via },
  { header: 'STATE', value: (attempt) => receiverStateText(attempt.receiver_state) },
  { header: 'REQUESTED', value: (attempt) => attempt.requested_at },
  { header: 'ENDED', value: attemptEnd },
];

/** A negotiation's heading (its outcome and the sender's state), then one line per attempt. */
export function formatNegotiation(negotiation: NegotiationAnswer): string[] {
  const ended = negotiation.ended_at === undefined ? '' : `, ended ${negotiation.ended_at}`;
  const reason = negotiation.reason === undefined ? '' : `: ${negotiation.reason}`;
  return [
    `negotiation ${negotiation.negotiation_id}: ${negotiation.outcome}, sender ${negotiation.sender_id} ` +
      `in ${negotiation.sender_state}${ended}${reason}`,
    ...formatTable(ATTEMPT_COLUMNS, negotiation.attempts),
  ];
}

/** `baton task`'s text: the task's status, its timeline as a table, then each negotiation. */
export function formatTask(answer: TaskAnswer): string[] {
  const holder = answer.owner === null ? '' : `, held by ${answer.owner}`;
  return [
    `task ${answer.task_id}: ${answer.status}${holder}, ${answer.events.length} events`,
    ...formatTable(TIMELINE_COLUMNS, answer.events),
    ...(answer.replies.length === 0
      ? []
      : [
          '',
          'replies to the user:',
          ...answer.replies.map((reply) => `  ${reply.time}  ${reply.agent_id}  ${reply.message}`),
        ]),
    ...answer.negotiations.flatMap((negotiation) => ['', ...formatNegotiation(negotiation)]),
  ];
}
