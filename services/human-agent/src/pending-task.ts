import type { ApprovalRequestData, EscalationData, Immutable } from '@baton/protocol';
import type { Handoff } from '@baton/runtime';

/** A handoff waiting for an operator's answer, as GET /v1/pending lists it. */
export interface PendingTask {
  task_id: string;
  message_id: string;
  handoff_type: string;
  /** The agent that asked: the answer goes back to it. */
  sender: string;
  summary: string;
  /** ISO 8601: when the human agent took the handoff. */
  received_at: string;
}

/** A pending task with the handoff it came from, from which the answer is derived. */
export interface PendingEntry {
  task: PendingTask;
  handoff: Handoff;
}

/** One line an operator can decide on: what is asked, about what, and why. */
export function summarize(handoff: Handoff): string {
  const { payload } = handoff;
  switch (payload.handoff_type) {
    case 'APPROVAL_REQUEST': {
      const data: Immutable<ApprovalRequestData> = payload.data;
      const subject = data.subject_id === undefined ? '' : ` of ${data.subject_id}`;
      const amount = data.amount === undefined ? '' : ` for ${data.amount.value} ${data.amount.currency}`;
      return `${data.action}${subject}${amount}: ${data.justification}`;
    }
    case 'ESCALATION': {
      const data: Immutable<EscalationData> = payload.data;
      const { symptoms, user_request: request } = data.technical_details;
      const said = [symptoms, request].find((value) => typeof value === 'string' && value !== '');
      return `${data.issue_category} (${data.severity})${said === undefined ? '' : `: ${String(said)}`}`;
    }
    default:
      return payload.handoff_type;
  }
}

export function pendingEntryOf(handoff: Handoff, receivedAt: Date): PendingEntry {
  return {
    task: {
      task_id: handoff.metadata.task_id,
      message_id: handoff.metadata.message_id,
      handoff_type: handoff.payload.handoff_type,
      sender: handoff.metadata.sender_id,
      summary: summarize(handoff),
      received_at: receivedAt.toISOString(),
    },
    handoff,
  };
}
