import { describe, expect, it } from 'vitest';
import { hasErrorCode } from '@baton/errors';
import type { JsonObject } from '@baton/protocol';
import { refundAnswer } from './refund-answer.js';

const request = {
  action: 'EXECUTE_REFUND',
  justification: 'My blender arrived broken',
  subject_id: 'item_123456789',
  amount: { value: 249.99, currency: 'USD' },
};

function answer(provided_info: JsonObject) {
  return { in_reply_to: 'b1e6d355-4f97-4a0e-9c4b-f6a8e7d4b606', provided_info };
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (hasErrorCode(error, 'VALIDATION_FAILED')) return error.message;
    throw error;
  }
  throw new Error('accepted');
}

describe('refundAnswer', () => {
  it('executes the approved refund on the request’s item, for its justification', () => {
    expect(refundAnswer('human_agent', answer({ decision: 'APPROVED', note: 'ok', request }))).toEqual({
      kind: 'refund',
      refund: { item_id: 'item_123456789', reason: 'My blender arrived broken' },
      reply: 'A supervisor approved your refund for item_123456789; it has been processed.',
      summary: 'Refund executed for item_123456789, approved by human_agent.',
    });
  });

  it('tells the customer of a denial, with the operator’s note', () => {
    expect(
      refundAnswer('human_agent', answer({ decision: 'DENIED', note: 'The warranty has expired.', request })),
    ).toEqual({
      kind: 'denied',
      reply: 'A supervisor could not approve your refund for item_123456789. The warranty has expired.',
      summary: 'Refund for item_123456789 denied by human_agent.',
    });
    expect(refundAnswer('human_agent', answer({ decision: 'DENIED', request })).reply).toBe(
      'A supervisor could not approve your refund for item_123456789.',
    );
  });

  it.each([
    ['sales_agent', { decision: 'APPROVED', request }, 'sent by sales_agent, not human_agent'],
    ['human_agent', { decision: 'MAYBE', request }, 'decision is neither APPROVED nor DENIED'],
    ['human_agent', { decision: 'APPROVED' }, 'the request decided is not EXECUTE_REFUND'],
    [
      'human_agent',
      { decision: 'APPROVED', request: { ...request, action: 'CLOSE_ACCOUNT' } },
      'the request decided is not EXECUTE_REFUND',
    ],
    [
      'human_agent',
      { decision: 'APPROVED', request: { ...request, subject_id: '' } },
      'the request names no item (subject_id)',
    ],
    [
      'human_agent',
      { decision: 'APPROVED', request: { ...request, justification: 3 } },
      'the request has no justification',
    ],
  ])('refuses an answer from %s with %j', (sender, info, message) => {
    expect(refusal(() => refundAnswer(sender, answer(info as JsonObject)))).toBe(`not a refund decision: ${message}`);
  });
});
