import { describe, expect, it } from 'vitest';
import type { AgentCard, RegisteredAgent } from '@baton/agent-registry';
import {
  agentDirectory,
  agentIdOfControlGroup,
  agentIdOfGroup,
  agentStatus,
  consumedTopicOf,
} from './agent-directory.js';

const members = [
  { clientId: 'sales-2', host: '10.0.0.2', memberId: 'm2' },
  { clientId: 'sales-1', host: '10.0.0.1', memberId: 'm1' },
];

function card(agentId: string, instanceId: string): AgentCard {
  return {
    agent_id: agentId,
    name: 'SalesAgent',
    domain: 'sales',
    skills: [{ name: 'execute_order' }],
    input_modes: ['TEXT'],
    output_modes: ['TEXT'],
    version: '1.0.0',
    instance_id: instanceId,
    started_at: '2026-01-01T12:00:00.000Z',
    heartbeat_interval_ms: 5_000,
  };
}

const sales: RegisteredAgent = {
  agent_id: 'sales_agent',
  live: true,
  card: card('sales_agent', 'sales-1'),
  instances: [
    {
      instance_id: 'sales-1',
      live: true,
      last_heartbeat_at: '2026-01-01T12:00:10.000Z',
      started_at: '2026-01-01T12:00:00.000Z',
      card: card('sales_agent', 'sales-1'),
    },
    {
      instance_id: 'sales-0',
      live: false,
      last_heartbeat_at: '2026-01-01T11:00:00.000Z',
      started_at: '2026-01-01T10:00:00.000Z',
      card: card('sales_agent', 'sales-0'),
    },
  ],
};

describe('agent directory', () => {
  it("tells agents' groups from the readers' groups", () => {
    expect(agentIdOfGroup('baton', 'baton.agent.sales_agent')).toBe('sales_agent');
    expect(agentIdOfGroup('baton', 'baton.router')).toBe('router');
    expect(agentIdOfGroup('baton', 'baton.agent.sales_agent.processed-reader.sales-1')).toBeUndefined();
    expect(agentIdOfGroup('baton', 'other.agent.sales_agent')).toBeUndefined();
    expect(agentIdOfGroup('baton', 'baton.gateway.gw-1.events')).toBeUndefined();
    expect(agentIdOfGroup('baton', 'baton.router.registry.router-1')).toBeUndefined();
  });

  it('is up while the group has members, listing each instance', () => {
    expect(agentStatus('baton', { groupId: 'baton.agent.sales_agent', state: 'Stable', members, lag: 7 })).toEqual({
      agent_id: 'sales_agent',
      group_id: 'baton.agent.sales_agent',
      up: true,
      state: 'Stable',
      lag: 7,
      control_lag: null,
      recent_outcomes: {},
      instances: [
        { instance_id: 'sales-1', host: '10.0.0.1' },
        { instance_id: 'sales-2', host: '10.0.0.2' },
      ],
      live: null,
      card: null,
      registrations: [],
    });
    expect(agentStatus('baton', { groupId: 'baton.agent.sales_agent', state: 'Empty', members: [] })).toMatchObject({
      up: false,
      lag: null,
    });
  });

  it("tells an agent's control consumer group from its inbox's", () => {
    expect(agentIdOfControlGroup('baton', 'baton.agent.sales_agent.control')).toBe('sales_agent');
    expect(agentIdOfControlGroup('baton', 'baton.agent.sales_agent')).toBeUndefined();
    expect(agentIdOfControlGroup('baton', 'baton.router.control')).toBeUndefined();
    expect(agentIdOfControlGroup('baton', 'baton.agent.sales_agent.registry.x')).toBeUndefined();
  });

  it("names the topic each group consumes, for its lag: an agent's inbox, the router's inbound topic", () => {
    expect(consumedTopicOf('baton', 'sales_agent')).toBe('baton.agent.sales_agent.inbox');
    expect(consumedTopicOf('baton', 'router')).toBe('baton.handoffs.inbound');
    expect(consumedTopicOf('baton', undefined)).toBeUndefined();
  });

  it('adds the card and the liveness of each registered instance', () => {
    const status = agentStatus('baton', { groupId: 'baton.agent.sales_agent', state: 'Stable', members }, sales);
    expect(status.instances).toEqual([
      { instance_id: 'sales-1', host: '10.0.0.1', live: true, last_heartbeat_at: '2026-01-01T12:00:10.000Z' },
      { instance_id: 'sales-2', host: '10.0.0.2' },
    ]);
    expect(status).toMatchObject({ live: true, card: { domain: 'sales', skills: [{ name: 'execute_order' }] } });
    expect(status.registrations).toEqual([
      {
        instance_id: 'sales-1',
        live: true,
        last_heartbeat_at: '2026-01-01T12:00:10.000Z',
        started_at: '2026-01-01T12:00:00.000Z',
        version: '1.0.0',
      },
      {
        instance_id: 'sales-0',
        live: false,
        last_heartbeat_at: '2026-01-01T11:00:00.000Z',
        started_at: '2026-01-01T10:00:00.000Z',
        version: '1.0.0',
      },
    ]);
  });

  it('lists groups and registered agents together, a registered agent without a group as down', () => {
    const router = { groupId: 'baton.router', state: 'Stable', members: [members[0]!] };
    const directory = agentDirectory('baton', [router], { registered: [sales], known: new Set(['sales_agent']) });
    expect(directory.map(({ agent_id, up, state, live }) => ({ agent_id, up, state, live }))).toEqual([
      { agent_id: 'router', up: true, state: 'Stable', live: null },
      { agent_id: 'sales_agent', up: false, state: 'Dead', live: true },
    ]);
    expect(directory[1]).toMatchObject({ group_id: 'baton.agent.sales_agent', instances: [] });
  });

  it('shows an agent whose registrations were all withdrawn as not live', () => {
    const group = { groupId: 'baton.agent.sales_agent', state: 'Empty', members: [] };
    const [status] = agentDirectory('baton', [group], { registered: [], known: new Set(['sales_agent']) });
    expect(status).toMatchObject({ agent_id: 'sales_agent', up: false, live: false, card: null, registrations: [] });
  });
});
