import { describe, expect, it } from 'vitest';
import { buildHandoff } from '@baton/protocol';
import { handoffSpanAttributes } from './handoff-span.js';

describe('handoffSpanAttributes', () => {
  it('names the task, the message, its type and category, who sent it to whom and who handles it', () => {
    const transfer = buildHandoff({
      metadata: { sender_id: 'triage_agent', recipient_id: 'sales_agent', task_id: 'task-1', correlation_id: 'c-1' },
      payload: { handoff_type: 'TASK_TRANSFER', data: { issue_category: 'SALES', task_summary: 'A mesh kit.' } },
    });
    expect(handoffSpanAttributes(transfer, 'sales_agent')).toEqual({
      'baton.task_id': 'task-1',
      'baton.message_id': transfer.metadata.message_id,
      'baton.handoff_type': 'TASK_TRANSFER',
      'baton.issue_category': 'SALES',
      'baton.sender_id': 'triage_agent',
      'baton.recipient_id': 'sales_agent',
      'baton.correlation_id': 'c-1',
      'baton.agent_id': 'sales_agent',
    });
  });

  it('leaves out what the handoff does not state, and joins several recipients', () => {
    const notification = buildHandoff({
      metadata: { sender_id: 'router', recipient_id: ['sales_agent', 'human_agent'], task_id: 'task-2' },
      payload: { handoff_type: 'NOTIFICATION', data: { event_type: 'PING', message: 'hello' } },
    });
    expect(handoffSpanAttributes(notification, undefined)).toEqual({
      'baton.task_id': 'task-2',
      'baton.message_id': notification.metadata.message_id,
      'baton.handoff_type': 'NOTIFICATION',
      'baton.sender_id': 'router',
      'baton.recipient_id': 'sales_agent,human_agent',
    });
  });
});
