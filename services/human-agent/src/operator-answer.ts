import { deriveHandoff } from '@baton/agent-sdk';
import { nameBasedUuid, type BuildOptions, type JsonObject } from '@baton/protocol';
import type { Handoff } from '@baton/runtime';
import type { PendingEntry } from './pending-task.js';

export const HUMAN_AGENT = 'human_agent';

export interface OperatorAnswer {
  decision: 'APPROVED' | 'DENIED';
  note?: string;
}

/** Long enough for a paragraph to the customer, short enough to keep records small. */
export const MAX_NOTE_LENGTH = 2000;

export type ParsedAnswer = { ok: true; answer: OperatorAnswer } | { ok: false; message: string };

/** Checks the body of POST /v1/pending/:taskId/answer: `{ "decision": "APPROVED"|"DENIED", "note"?: string }`. */
export function parseOperatorAnswer(body: unknown): ParsedAnswer {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, message: 'the body must be a JSON object' };
  }
  const { decision, note, ...rest } = body as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) return { ok: false, message: `unknown field(s): ${unknown.join(', ')}` };
  if (decision !== 'APPROVED' && decision !== 'DENIED') {
    return { ok: false, message: 'decision must be "APPROVED" or "DENIED"' };
  }
  if (note === undefined) return { ok: true, answer: { decision } };
  if (typeof note !== 'string' || note.length > MAX_NOTE_LENGTH) {
    return { ok: false, message: `note must be a string of at most ${MAX_NOTE_LENGTH} characters` };
  }
  return { ok: true, answer: { decision, note } };
}

/**
 * The PROVIDE_INFORMATION that carries an operator's answer back to the agent that asked: same
 * task and context, in_reply_to its message, and provided_info `{ decision, note?, request }`,
 * where request is the data of the handoff decided, so the asker acts on exactly what the
 * operator saw without keeping state of its own. Its message_id derives from the request's, so
 * two instances answering the same request at once publish one message id twice, and the
 * asker's deduplication acts on the first answer only (one refund, not two).
 */
export function answerHandoff(entry: PendingEntry, answer: OperatorAnswer, options: BuildOptions = {}): Handoff {
  const { handoff } = entry;
  return deriveHandoff(
    handoff,
    HUMAN_AGENT,
    {
      to: handoff.metadata.sender_id,
      handoff_type: 'PROVIDE_INFORMATION',
      data: {
        in_reply_to: handoff.metadata.message_id,
        provided_info: {
          decision: answer.decision,
          ...(answer.note === undefined ? {} : { note: answer.note }),
          request: structuredClone(handoff.payload.data) as unknown as JsonObject,
        },
        source: 'human_operator',
      },
      action: {
        action_type: 'HUMAN_DECISION',
        details: answer.note === undefined ? answer.decision : `${answer.decision}: ${answer.note}`,
      },
      workflow_state: `HUMAN_${answer.decision}`,
    },
    { newId: () => nameBasedUuid(`answer:${handoff.metadata.message_id}`), ...options },
  );
}
