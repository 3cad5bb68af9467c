import { describe, expect, it } from 'vitest';
import type { OutcomeStep, TimelineEvent } from '@baton/gateway-api';
import { flowLayout } from './task-flow-layout.js';

const outcome = (agent_id: string, outcome: string, extra: Partial<OutcomeStep> = {}): TimelineEvent => ({
  kind: 'outcome',
  time: '2026-12-08T00:00:00.000Z',
  message_id: 'm',
  handoff_type: 'TASK_TRANSFER',
  agent_id,
  outcome,
  ...extra,
});

describe('flowLayout', () => {
  it('draws a routed handoff from its sender to its agent, and what the agent did as a note on its lane', () => {
    const layout = flowLayout([
      outcome('router', 'ROUTED', { sender: 'portal', target: 'triage', handoff_type: 'ESCALATION' }),
      outcome('triage', 'HANDED_OFF', { target: 'sales' }),
      outcome('router', 'ROUTED', { sender: 'triage', target: 'sales' }),
      outcome('sales', 'DEAD_LETTERED', { error_code: 'RETRIES_EXHAUSTED' }),
      outcome('router', 'ROUTED', { sender: 'triage', target: 'sales' }),
      outcome('sales', 'COMPLETED'),
    ]);
    expect(layout.lanes).toEqual(['portal', 'triage', 'sales']);
    expect(layout.rows).toBe(6);
    expect(layout.marks).toEqual([
      { kind: 'arrow', row: 0, from: 'portal', to: 'triage', label: 'ESCALATION', tone: 'info', dashed: false },
      { kind: 'note', row: 1, lane: 'triage', label: 'HANDED_OFF → sales', tone: 'info' },
      { kind: 'arrow', row: 2, from: 'triage', to: 'sales', label: 'TASK_TRANSFER', tone: 'info', dashed: false },
      { kind: 'note', row: 3, lane: 'sales', label: 'DEAD_LETTERED RETRIES_EXHAUSTED', tone: 'bad' },
      // The replay: one more arrow.
      { kind: 'arrow', row: 4, from: 'triage', to: 'sales', label: 'TASK_TRANSFER', tone: 'info', dashed: false },
      { kind: 'note', row: 5, lane: 'sales', label: 'COMPLETED', tone: 'good' },
    ]);
  });

  it('fans out to several targets, dashes what was not delivered, and dead-letters at the router on its own lane', () => {
    const layout = flowLayout([
      outcome('router', 'ROUTED', { sender: 'portal', target: 'a,b' }),
      outcome('router', 'NOT_DELIVERED', { sender: 'portal', target: 'nobody' }),
      outcome('router', 'DEAD_LETTERED', { error_code: 'NO_ROUTE' }),
    ]);
    expect(layout.lanes).toEqual(['portal', 'a', 'b', 'nobody', 'router']);
    expect(layout.marks).toEqual([
      { kind: 'arrow', row: 0, from: 'portal', to: 'a', label: 'TASK_TRANSFER', tone: 'info', dashed: false },
      { kind: 'arrow', row: 0, from: 'portal', to: 'b', label: 'TASK_TRANSFER', tone: 'info', dashed: false },
      {
        kind: 'arrow',
        row: 1,
        from: 'portal',
        to: 'nobody',
        label: 'TASK_TRANSFER: not delivered',
        tone: 'bad',
        dashed: true,
      },
      { kind: 'note', row: 2, lane: 'router', label: 'DEAD_LETTERED NO_ROUTE', tone: 'bad' },
    ]);
  });

  it('draws a negotiation: the staged context, each message between sender and receiver, a refused one dashed', () => {
    const layout = flowLayout([
      { kind: 'staged', time: 't', message_id: 'r1.staged', sender: 'triage', context_mode: 'by-value', detail: '' },
      {
        kind: 'lifecycle',
        time: 't',
        message_id: 'r1',
        message_type: 'HandoffRequest',
        sender: 'triage',
        receiver: 'expert',
      },
      {
        kind: 'lifecycle',
        time: 't',
        message_id: 'a',
        message_type: 'HandoffAccept',
        sender: 'expert',
        receiver: 'triage',
      },
      {
        kind: 'lifecycle',
        time: 't',
        message_id: 'late',
        message_type: 'HandoffAccept',
        sender: 'sales',
        receiver: 'triage',
        refused: { code: 'ILLEGAL_TRANSITION', side: 'receiver', from: 'REJECTED', event: 'accept', message: 'late' },
      },
    ]);
    expect(layout.lanes).toEqual(['triage', 'expert', 'sales']);
    expect(
      layout.marks.map((mark) => [mark.kind, mark.label, mark.tone, mark.kind === 'arrow' && mark.dashed]),
    ).toEqual([
      ['note', 'context staged', 'info', false],
      ['arrow', 'HandoffRequest', 'info', false],
      ['arrow', 'HandoffAccept', 'good', false],
      ['arrow', 'HandoffAccept (refused)', 'bad', true],
    ]);
  });
});
