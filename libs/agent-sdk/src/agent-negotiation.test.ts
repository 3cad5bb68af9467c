import { describe, expect, it } from 'vitest';
import { AgentRegistryView, type AgentRegistration } from '@baton/agent-registry';
import { decideOnRequest } from '@baton/negotiation';
import { buildLifecycleMessage } from '@baton/protocol';
import { queuedHandoffs } from './agent-negotiation.js';
import { liveAgentCards } from './registry-cards.js';

describe('queuedHandoffs', () => {
  it('counts a handoff and its commit marker as one, and the last marker behind the position as none', () => {
    expect(queuedHandoffs([])).toBe(0);
    // Idle partitions: never written, or processed up to the last commit marker.
    expect(
      queuedHandoffs([
        { partition: 0, lag: 0 },
        { partition: 1, lag: 1 },
      ]),
    ).toBe(0);
    // Never consumed: one handoff and its marker; after processing: two more waiting.
    expect(
      queuedHandoffs([
        { partition: 0, lag: 2 },
        { partition: 1, lag: 5 },
      ]),
    ).toBe(3);
  });

  it('takes what the instance holds uncommitted when it is more: 100 handoffs committed in one transaction lag 102 offsets', () => {
    const batched = [{ partition: 0, lag: 1 + 100 + 1 }];
    expect(queuedHandoffs(batched)).toBe(51);
    expect(queuedHandoffs(batched, 100)).toBe(100);
    expect(queuedHandoffs([{ partition: 0, lag: 5 }], 1)).toBe(2);
  });
});

describe('liveAgentCards', () => {
  const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
  const registered = (agentId: string, instanceId: string, heartbeatMs: number): AgentRegistration => ({
    card: {
      agent_id: agentId,
      name: agentId.toUpperCase(),
      domain: 'default',
      skills: [{ name: 'NetworkExpert' }],
      input_modes: ['TEXT'],
      output_modes: ['TEXT'],
      version: '1.0.0',
      instance_id: instanceId,
      started_at: new Date(T0).toISOString(),
      heartbeat_interval_ms: 1_000,
    },
    last_heartbeat_at: new Date(T0 + heartbeatMs).toISOString(),
  });

  it('gives the cards of live instances only, so a rejection never suggests an agent that is gone', () => {
    const view = new AgentRegistryView();
    view.apply('live_expert/a', registered('live_expert', 'a', 10_000));
    view.apply('live_expert/b', registered('live_expert', 'b', 0));
    view.apply('stale_expert/a', registered('stale_expert', 'a', 0));
    view.apply('gone_expert/a', registered('gone_expert', 'a', 10_000));
    view.apply('gone_expert/a', null);
    const cards = liveAgentCards(view, new Date(T0 + 10_500));
    expect(cards.map((live) => live.agent_id)).toEqual(['live_expert']);
    const request = buildLifecycleMessage('HandoffRequest', {
      sender_id: 'customer_service_agent',
      receiver_id: 'net_expert',
      task_id: 'task-1',
      payload: { reason: 'r', desired_agent_type: 'NetworkExpert', priority: 'HIGH', initial_context_summary: 's' },
    });
    const self = { agent_id: 'net_expert', name: 'NetExpert', domain: 'network', skills: [] };
    expect(decideOnRequest(request, { card: self, queued: 0, capacity: 0, liveAgents: cards })).toMatchObject({
      alternative_agent_suggestions: ['live_expert'],
    });
  });
});
