import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { buildHandoff, parseHandoff, type HandoffMessage } from '@baton/protocol';
import { pendingEntryOf, summarize } from './pending-task.js';

const require = createRequire(import.meta.url);
const approval = parseHandoff(require('@baton/schemas/fixtures/approval-request.example.json') as HandoffMessage);
const escalation = parseHandoff(require('@baton/schemas/fixtures/seed-000-escalation-full.json') as HandoffMessage);

describe('summarize', () => {
  it('states an approval’s action, subject, amount and justification', () => {
    expect(summarize(approval)).toBe(
      'EXECUTE_REFUND of item_132612938 for 249.99 USD: Item arrived broken; above the automatic refund limit.',
    );
  });

  it('states an escalation’s category, severity and what the customer reported', () => {
    expect(summarize(escalation)).toBe(
      'NETWORK_CONNECTIVITY (CRITICAL): Intermittent disconnections, unable to access specific websites.',
    );
    const asked = buildHandoff({
      metadata: { sender_id: 'triage_agent', recipient_id: 'human_agent', task_id: 'task-1' },
      payload: {
        handoff_type: 'ESCALATION',
        data: {
          issue_category: 'HUMAN_REQUESTED',
          severity: 'MEDIUM',
          customer_info: { user_id: 'cust-1', name: 'Ann' },
          technical_details: { user_request: 'I want to talk to your manager' },
        },
      },
    });
    expect(summarize(asked)).toBe('HUMAN_REQUESTED (MEDIUM): I want to talk to your manager');
  });

  it('leaves out what an approval does not state', () => {
    const bare = buildHandoff({
      metadata: { sender_id: 'a', recipient_id: 'human_agent', task_id: 'task-2' },
      payload: { handoff_type: 'APPROVAL_REQUEST', data: { action: 'CLOSE_ACCOUNT', justification: 'Asked to.' } },
    });
    expect(summarize(bare)).toBe('CLOSE_ACCOUNT: Asked to.');
  });
});

describe('pendingEntryOf', () => {
  it('lists the task by its ids, type, sender, summary and arrival', () => {
    expect(pendingEntryOf(approval, new Date(Date.UTC(2026, 10, 21, 9, 0, 1)))).toEqual({
      task: {
        task_id: 'task-refund-003',
        message_id: 'b1e6d355-4f97-4a0e-9c4b-f6a8e7d4b606',
        handoff_type: 'APPROVAL_REQUEST',
        sender: 'issues_and_repairs_agent',
        summary:
          'EXECUTE_REFUND of item_132612938 for 249.99 USD: Item arrived broken; above the automatic refund limit.',
        received_at: '2026-11-21T09:00:01.000Z',
      },
      handoff: approval,
    });
  });
});
