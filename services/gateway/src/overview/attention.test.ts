import { describe, expect, it } from 'vitest';
import type { AgentStatus } from '@baton/gateway-api';
import { attentionOf } from './attention.js';

function agent(agent_id: string, up: boolean, live: boolean | null, lag: number | null): AgentStatus {
  return {
    agent_id,
    group_id: `baton.agent.${agent_id}`,
    up,
    state: up ? 'Stable' : 'Empty',
    lag,
    control_lag: null,
    recent_outcomes: {},
    instances: [],
    live,
    card: null,
    registrations: [],
  };
}

describe('attentionOf', () => {
  it('puts agents down first, then agents not live, growing lags, agents holding stuck tasks, then DLQ topics holding dead letters, most first', () => {
    const items = attentionOf(
      [
        agent('router', true, null, 0),
        agent('sales_agent', false, false, 12),
        agent('human_agent', true, false, 0),
        agent('triage_agent', true, true, 3),
      ],
      {
        total: 5,
        by_error_code: [],
        by_topic: [
          { topic: 'baton.handoffs.inbound.dlq', source_topic: 'baton.handoffs.inbound', count: 4 },
          { topic: 'baton.agent.sales_agent.inbox.dlq', source_topic: 'baton.agent.sales_agent.inbox', count: 1 },
        ],
        empty_topics: 20,
      },
      [
        { owner: 'refunds_agent', count: 3 },
        { owner: 'triage_agent', count: 1 },
      ],
      [{ agent_id: 'triage_agent', from: 3, to: 40, seconds: 30 }],
    );
    expect(items).toEqual([
      {
        kind: 'agent_down',
        subject: 'sales_agent',
        detail: 'no instance is consuming; its inbox is 12 offsets behind',
      },
      {
        kind: 'agent_not_live',
        subject: 'human_agent',
        detail: 'its instances consume but none has sent a heartbeat within the liveness window',
      },
      {
        kind: 'lag_growing',
        subject: 'triage_agent',
        detail: 'its inbox lag grew from 3 to 40 offsets over the last 30 s',
      },
      {
        kind: 'stuck_tasks',
        subject: 'refunds_agent',
        detail: 'holds 3 stuck tasks: executing past a deadline, or without an event for too long',
      },
      {
        kind: 'stuck_tasks',
        subject: 'triage_agent',
        detail: 'holds 1 stuck task: executing past a deadline, or without an event for too long',
      },
      {
        kind: 'dead_letters',
        subject: 'baton.handoffs.inbound.dlq',
        detail: '4 dead letters from baton.handoffs.inbound',
      },
      {
        kind: 'dead_letters',
        subject: 'baton.agent.sales_agent.inbox.dlq',
        detail: '1 dead letter from baton.agent.sales_agent.inbox',
      },
    ]);
  });

  it('names an agent whose live instances tell of failing models or tools, summed by code, most first', () => {
    const registration = (instance_id: string, live: boolean, recent_failures?: Record<string, number>) => ({
      instance_id,
      live,
      last_heartbeat_at: '2026-12-08T00:00:00.000Z',
      started_at: '2026-12-08T00:00:00.000Z',
      version: '1.0.0',
      ...(recent_failures === undefined ? {} : { recent_failures }),
    });
    const refunds = {
      ...agent('refunds_agent', true, true, 0),
      registrations: [
        registration('r-1', true, { MODEL_UNAVAILABLE: 40, TOOL_FAILED: 2 }),
        registration('r-2', true, { MODEL_UNAVAILABLE: 27 }),
        // A dead instance's last word is not news.
        registration('r-0', false, { TOOL_FAILED: 500 }),
      ],
    };
    const quiet = { ...agent('sales_agent', true, true, 0), registrations: [registration('s-1', true)] };
    expect(attentionOf([refunds, quiet], { total: 0, by_error_code: [], by_topic: [], empty_topics: 3 }, [])).toEqual([
      {
        kind: 'agent_failing',
        subject: 'refunds_agent',
        detail: 'what it depends on is failing, in the last minute: MODEL_UNAVAILABLE 67, TOOL_FAILED 2',
      },
    ]);
  });

  it('is empty when all is well', () => {
    expect(
      attentionOf(
        [agent('router', true, null, 0)],
        { total: 0, by_error_code: [], by_topic: [], empty_topics: 23 },
        [],
      ),
    ).toEqual([]);
  });
});
