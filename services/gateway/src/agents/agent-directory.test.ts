import { describe, expect, it } from 'vitest';
import { agentIdOfGroup, agentStatus } from './agent-directory.js';

describe('agent directory', () => {
  it("tells agents' groups from the readers' groups", () => {
    expect(agentIdOfGroup('baton', 'baton.agent.sales_agent')).toBe('sales_agent');
    expect(agentIdOfGroup('baton', 'baton.router')).toBe('router');
    expect(agentIdOfGroup('baton', 'baton.agent.sales_agent.processed-reader.sales-1')).toBeUndefined();
    expect(agentIdOfGroup('baton', 'other.agent.sales_agent')).toBeUndefined();
    expect(agentIdOfGroup('baton', 'baton.gateway.gw-1.events')).toBeUndefined();
  });

  it('is up while the group has members, listing each instance', () => {
    const members = [
      { clientId: 'sales-2', host: '10.0.0.2', memberId: 'm2' },
      { clientId: 'sales-1', host: '10.0.0.1', memberId: 'm1' },
    ];
    expect(agentStatus('baton', { groupId: 'baton.agent.sales_agent', state: 'Stable', members })).toEqual({
      agent_id: 'sales_agent',
      group_id: 'baton.agent.sales_agent',
      up: true,
      state: 'Stable',
      instances: [
        { instance_id: 'sales-1', host: '10.0.0.1' },
        { instance_id: 'sales-2', host: '10.0.0.2' },
      ],
    });
    expect(agentStatus('baton', { groupId: 'baton.agent.sales_agent', state: 'Empty', members: [] }).up).toBe(false);
  });
});
