import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../handoff/protocol-version.js';
import { buildHandoff } from './build-handoff.js';
import { buildLifecycleMessage } from './build-lifecycle-message.js';

const escalation = {
  issue_category: 'NETWORK_CONNECTIVITY',
  severity: 'CRITICAL',
  customer_info: { user_id: 'cust-1', name: 'John Doe' },
  technical_details: { isp: 'GlobalNet' },
} as const;

describe('buildHandoff', () => {
  it('fills message_id, timestamp, protocol_version, priority and empty context and instructions', () => {
    const message = buildHandoff(
      {
        metadata: {
          sender_id: 'customer_service_agent_001',
          recipient_id: 'technical_support_agent_pool',
          task_id: 't-1',
        },
        payload: { handoff_type: 'ESCALATION', data: structuredClone(escalation) },
      },
      { newId: () => '11111111-2222-4333-8444-555555555555', now: () => new Date(Date.UTC(2026, 10, 21, 9, 0, 0, 7)) },
    );
    expect(message).toEqual({
      metadata: {
        message_id: '11111111-2222-4333-8444-555555555555',
        timestamp: '2026-11-21T09:00:00.007Z',
        protocol_version: PROTOCOL_VERSION,
        sender_id: 'customer_service_agent_001',
        recipient_id: 'technical_support_agent_pool',
        task_id: 't-1',
        priority: 'MEDIUM',
      },
      context: { workflow_state: 'INITIAL_REQUEST', previous_actions: [] },
      payload: { handoff_type: 'ESCALATION', data: escalation },
      instructions: {},
    });
  });

  it('generates a fresh UUID and a millisecond UTC timestamp by default', () => {
    const draft = {
      metadata: { sender_id: 'a', recipient_id: 'b', task_id: 't-2' },
      payload: { handoff_type: 'STATUS_UPDATE' as const, data: { status: 'IN_PROGRESS' as const } },
    };
    const first = buildHandoff(draft);
    const second = buildHandoff(draft);
    expect(first.metadata.message_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first.metadata.message_id).not.toBe(second.metadata.message_id);
    expect(first.metadata.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('keeps what the sender stated', () => {
    const message = buildHandoff({
      metadata: {
        sender_id: 'a',
        recipient_id: ['b', 'c'],
        task_id: 't-3',
        priority: 'HIGH',
        correlation_id: 'flow-1',
      },
      context: { workflow_state: 'ESCALATED', historical_data_summary: 'two days of outages' },
      payload: { handoff_type: 'NOTIFICATION', data: { event_type: 'X', message: 'y' } },
      instructions: { constraints: { time_limit: 'PT2H' } },
    });
    expect(message.metadata).toMatchObject({ recipient_id: ['b', 'c'], priority: 'HIGH', correlation_id: 'flow-1' });
    expect(message.context).toEqual({
      workflow_state: 'ESCALATED',
      historical_data_summary: 'two days of outages',
      previous_actions: [],
    });
    expect(message.instructions).toEqual({ constraints: { time_limit: 'PT2H' } });
  });

  it('returns a deeply frozen message', () => {
    const message = buildHandoff({
      metadata: { sender_id: 'a', recipient_id: 'b', task_id: 't-4' },
      payload: { handoff_type: 'ESCALATION', data: structuredClone(escalation) },
    });
    expect(Object.isFrozen(message)).toBe(true);
    expect(Object.isFrozen(message.payload.data)).toBe(true);
    expect(Object.isFrozen(message.context.previous_actions)).toBe(true);
    expect(() => (message.context.previous_actions as unknown[]).push({})).toThrow(TypeError);
  });

  it('refuses a draft that breaks the data schema', () => {
    expect(() =>
      buildHandoff({
        metadata: { sender_id: 'a', recipient_id: 'b', task_id: 't-5' },
        payload: {
          handoff_type: 'ESCALATION',
          data: { ...structuredClone(escalation), customer_info: { user_id: 'cust-1' } as never },
        },
      }),
    ).toThrowError(expect.objectContaining({ code: 'VALIDATION_FAILED', path: '/payload/data/customer_info/name' }));
  });
});

describe('buildLifecycleMessage', () => {
  it('builds a frozen HandoffAccept linked to its request', () => {
    const accept = buildLifecycleMessage(
      'HandoffAccept',
      {
        sender_id: 'AgentB_TechnicalSupport',
        receiver_id: 'AgentA_CustomerService',
        task_id: 'task-12345',
        correlation_id: 'a1b2c3d4-e5f6-7890-1234-567890abcdef',
        payload: {
          task_id: 'task-12345',
          correlation_id: 'a1b2c3d4-e5f6-7890-1234-567890abcdef',
          estimated_handoff_time: 30,
        },
      },
      { newId: () => '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b', now: () => new Date(Date.UTC(2026, 0, 2)) },
    );
    expect(accept).toEqual({
      message_id: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
      timestamp: '2026-01-02T00:00:00.000Z',
      protocol_version: PROTOCOL_VERSION,
      message_type: 'HandoffAccept',
      sender_id: 'AgentB_TechnicalSupport',
      receiver_id: 'AgentA_CustomerService',
      task_id: 'task-12345',
      correlation_id: 'a1b2c3d4-e5f6-7890-1234-567890abcdef',
      payload: {
        task_id: 'task-12345',
        correlation_id: 'a1b2c3d4-e5f6-7890-1234-567890abcdef',
        estimated_handoff_time: 30,
      },
    });
    expect(Object.isFrozen(accept.payload)).toBe(true);
  });
});
