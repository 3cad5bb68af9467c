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

  it('carries the conversation it is given in place of the incoming one', () => {
    const conversation = [
      {
        type: 'CHAT_MESSAGE',
        sender: 'user',
        content: 'My router keeps dropping.',
        timestamp: '2026-11-21T11:59:00.000Z',
      },
      {
        type: 'TOOL_CALL',
        sender: 'technical_support_agent_pool',
        content: '{}',
        timestamp: '2026-11-21T11:59:30.000Z',
        tool_name: 'transfer_to_level3',
        tool_call_id: 'c1',
      },
    ];
    const next = deriveHandoff(seed, 'technical_support_agent_pool', {
      to: 'level3_network_expert_agent_pool',
      handoff_type: 'ESCALATION',
      data: structuredClone(seed.payload.data) as never,
      action: { action_type: 'TRANSFER_TO_LEVEL3', details: 'Model handoff.' },
      user_interaction_history: conversation,
    });
    expect(next.context.user_interaction_history).toEqual(conversation);
    expect(seed.context.user_interaction_history).not.toEqual(conversation);
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
  it('splits off a subtask as a task of its own that names its parent, in the same flow', () => {
    const child = deriveHandoff(seed, 'planner_agent', {
      to: 'worker_agent',
      task_id: 'task-abc-456.subtask-1',
      parent_task_ids: ['task-abc-456'],
      handoff_type: 'STATUS_UPDATE',
      data: { status: 'IN_PROGRESS' },
      action: { action_type: 'SPLIT_REQUIREMENT', details: 'subtask 1' },
    });
    expect(child.metadata).toMatchObject({
      task_id: 'task-abc-456.subtask-1',
      parent_task_ids: ['task-abc-456'],
      correlation_id: 'flow-xyz-123',
    });
    // Within the subtask, every derived handoff carries its parents forward.
    const next = deriveHandoff(child, 'worker_agent', {
      to: 'compiler_agent',
      handoff_type: 'STATUS_UPDATE',
      data: { status: 'IN_PROGRESS' },
      action: { action_type: 'DO_SUBTASK', details: 'round 1' },
    });
    expect(next.metadata.task_id).toBe('task-abc-456.subtask-1');
    expect(next.metadata.parent_task_ids).toEqual(['task-abc-456']);
    // A report to the parent task is of that task, which has no parents of its own here.
    const report = deriveHandoff(next, 'reviewer_agent', {
      to: 'planner_agent',
      task_id: 'task-abc-456',
      handoff_type: 'NOTIFICATION',
      data: { event_type: 'SUBTASK_COMPLETED', message: 'done' },
      action: { action_type: 'REPORT_SUBTASK_COMPLETED', details: 'done' },
    });
    expect(report.metadata.task_id).toBe('task-abc-456');
    expect(report.metadata.parent_task_ids).toBeUndefined();
  });
});
