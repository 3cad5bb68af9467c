import { describe, expect, it } from 'vitest';
import { buildLifecycleMessage, type LifecycleDraft } from './build-lifecycle-message.js';

const REQUEST_ID = '3f9c1a52-7d4e-4b8a-9c61-2e5f8a0b7d13';

describe('buildLifecycleMessage', () => {
  it('fills a UUID v4 message_id, the timestamp and the version, and leaves the draft unfrozen', () => {
    const draft: LifecycleDraft<'TaskContextTransfer'> = {
      sender_id: 'AgentA_CustomerService',
      receiver_id: 'AgentB_TechnicalSupport',
      task_id: 'task-12345',
      correlation_id: REQUEST_ID,
      payload: { context_data: { task_description: 'crash on start' } },
    };
    const message = buildLifecycleMessage('TaskContextTransfer', draft);
    expect(message.message_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(message).toMatchObject({ message_type: 'TaskContextTransfer', protocol_version: '1.0.0' });
    expect(Object.isFrozen(message.payload.context_data)).toBe(true);
    expect(Object.isFrozen(draft.payload)).toBe(false);
  });

  it('validates like buildHandoff: a reply without correlation_id is refused with its path', () => {
    expect(() =>
      buildLifecycleMessage('HandoffReject', {
        sender_id: 'AgentB_TechnicalSupport',
        receiver_id: 'AgentA_CustomerService',
        task_id: 'task-12345',
        payload: { reason: 'overloaded' },
      }),
    ).toThrowError(expect.objectContaining({ code: 'VALIDATION_FAILED', path: '/correlation_id' }));
  });

  it('refuses a payload copy that contradicts the envelope', () => {
    expect(() =>
      buildLifecycleMessage('HandoffComplete', {
        sender_id: 'AgentB_TechnicalSupport',
        receiver_id: 'AgentA_CustomerService',
        task_id: 'task-12345',
        correlation_id: REQUEST_ID,
        payload: { correlation_id: 'another-request', handoff_status: 'SUCCESS' },
      }),
    ).toThrowError(expect.objectContaining({ code: 'VALIDATION_FAILED', path: '/payload/correlation_id' }));
  });
});
