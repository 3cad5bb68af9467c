import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parseHandoff, type HandoffMessage } from '@baton/protocol';
import { deriveHandoff } from './derive-handoff.js';

const require = createRequire(import.meta.url);
const seed = parseHandoff(require('@baton/schemas/fixtures/seed-000-escalation-full.json') as HandoffMessage);
const now = () => new Date(Date.UTC(2026, 10, 21, 12, 0, 0));

describe('deriveHandoff', () => {
  it('keeps the task and its context and appends the agent’s action to previous_actions', () => {
    const next = deriveHandoff(
      seed,
      'technical_support_agent_pool',
      {
        to: 'level3_network_expert_agent_pool',
        handoff_type: 'ESCALATION',
        data: structuredClone(seed.payload.data) as never,
        action: { action_type: 'REMOTE_DIAGNOSTIC', details: 'Logs show repeated DHCP failures.' },
        workflow_state: 'ESCALATED_TO_TIER3',
      },
      { now, newId: () => '99999999-9999-4999-8999-999999999999' },
    );
    expect(next.metadata).toEqual({
      message_id: '99999999-9999-4999-8999-999999999999',
      timestamp: '2026-11-21T12:00:00.000Z',
      protocol_version: '1.0.0',
      sender_id: 'technical_support_agent_pool',
      recipient_id: 'level3_network_expert_agent_pool',
      task_id: 'task-abc-456',
      correlation_id: 'flow-xyz-123',
      priority: 'HIGH',
    });
    expect(next.context.workflow_state).toBe('ESCALATED_TO_TIER3');
    expect(next.context.previous_actions).toEqual([
      ...seed.context.previous_actions,
      {
        action_type: 'REMOTE_DIAGNOSTIC',
        details: 'Logs show repeated DHCP failures.',
        timestamp: '2026-11-21T12:00:00.000Z',
        agent_id: 'technical_support_agent_pool',
      },
    ]);
    expect(next.context.user_interaction_history).toEqual(seed.context.user_interaction_history);
    expect(next.context.historical_data_summary).toBe(seed.context.historical_data_summary);
    expect(next.payload.data).toEqual(seed.payload.data);
  });

  it('correlates with the incoming message when the flow has no correlation id', () => {
    const incoming = parseHandoff({
      ...structuredClone(seed),
      metadata: { ...structuredClone(seed.metadata), correlation_id: undefined },
    });
    const next = deriveHandoff(incoming, 'a', {
      to: 'b',
      handoff_type: 'STATUS_UPDATE',
      data: { status: 'IN_PROGRESS' },
      action: { action_type: 'ACK', details: 'working on it' },
    });
    expect(next.metadata.correlation_id).toBe(seed.metadata.message_id);
    expect(next.metadata.expiration_time).toBeUndefined();
  });
});
