import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { nameBasedUuid, parseHandoff, type HandoffMessage } from '@baton/protocol';
import { MAX_NOTE_LENGTH, answerHandoff, parseOperatorAnswer } from './operator-answer.js';
import { pendingEntryOf } from './pending-task.js';

const require = createRequire(import.meta.url);
const approval = parseHandoff(require('@baton/schemas/fixtures/approval-request.example.json') as HandoffMessage);
const now = () => new Date(Date.UTC(2026, 10, 21, 10, 0, 0));

describe('parseOperatorAnswer', () => {
  it('accepts a decision with or without a note', () => {
    expect(parseOperatorAnswer({ decision: 'APPROVED' })).toEqual({ ok: true, answer: { decision: 'APPROVED' } });
    expect(parseOperatorAnswer({ decision: 'DENIED', note: 'Out of warranty.' })).toEqual({
      ok: true,
      answer: { decision: 'DENIED', note: 'Out of warranty.' },
    });
  });

  it.each([
    ['no body', undefined, 'the body must be a JSON object'],
    ['an array', [], 'the body must be a JSON object'],
    ['a string', 'APPROVED', 'the body must be a JSON object'],
    ['no decision', {}, 'decision must be "APPROVED" or "DENIED"'],
    ['a lower-case decision', { decision: 'approved' }, 'decision must be "APPROVED" or "DENIED"'],
    ['a number as note', { decision: 'APPROVED', note: 7 }, 'note must be a string of at most 2000 characters'],
    [
      'a note too long',
      { decision: 'APPROVED', note: 'x'.repeat(MAX_NOTE_LENGTH + 1) },
      'note must be a string of at most 2000 characters',
    ],
    ['unknown fields', { decision: 'APPROVED', amount: 5, by: 'me' }, 'unknown field(s): amount, by'],
  ])('refuses %s', (_case, body, message) => {
    expect(parseOperatorAnswer(body)).toEqual({ ok: false, message });
  });
});

describe('answerHandoff', () => {
  it('gives every answer to one request the same message id, so a second answer is a duplicate', () => {
    const entry = pendingEntryOf(approval, now());
    const first = answerHandoff(entry, { decision: 'APPROVED' });
    const second = answerHandoff(entry, { decision: 'DENIED', note: 'changed my mind' });
    expect(first.metadata.message_id).toBe(second.metadata.message_id);
    expect(first.metadata.message_id).toBe(nameBasedUuid(`answer:${approval.metadata.message_id}`));
  });

  it('answers the asker in reply to its message, with the decision and the request decided', () => {
    const entry = pendingEntryOf(approval, now());
    const answer = answerHandoff(
      entry,
      { decision: 'APPROVED', note: 'Fine.' },
      { now, newId: () => '11111111-1111-4111-8111-111111111111' },
    );
    expect(answer.metadata).toEqual({
      message_id: '11111111-1111-4111-8111-111111111111',
      timestamp: '2026-11-21T10:00:00.000Z',
      protocol_version: '1.0.0',
      sender_id: 'human_agent',
      recipient_id: 'issues_and_repairs_agent',
      task_id: 'task-refund-003',
      correlation_id: 'b1e6d355-4f97-4a0e-9c4b-f6a8e7d4b606',
      priority: 'HIGH',
    });
    expect(answer.payload).toEqual({
      handoff_type: 'PROVIDE_INFORMATION',
      data: {
        in_reply_to: 'b1e6d355-4f97-4a0e-9c4b-f6a8e7d4b606',
        provided_info: { decision: 'APPROVED', note: 'Fine.', request: approval.payload.data },
        source: 'human_operator',
      },
    });
    expect(answer.context).toEqual({
      workflow_state: 'HUMAN_APPROVED',
      previous_actions: [
        {
          action_type: 'HUMAN_DECISION',
          details: 'APPROVED: Fine.',
          timestamp: '2026-11-21T10:00:00.000Z',
          agent_id: 'human_agent',
        },
      ],
    });
    expect(answer.instructions).toEqual({});
  });

  it('leaves the note out when there is none', () => {
    const answer = answerHandoff(pendingEntryOf(approval, now()), { decision: 'DENIED' }, { now });
    expect(answer.payload.data).toMatchObject({ provided_info: { decision: 'DENIED' } });
    expect(answer.payload.data).not.toHaveProperty('provided_info.note');
    expect(answer.context.previous_actions.at(-1)?.details).toBe('DENIED');
    expect(answer.context.workflow_state).toBe('HUMAN_DENIED');
  });
});
