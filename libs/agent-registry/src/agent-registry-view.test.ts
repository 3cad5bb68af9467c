import { describe, expect, it } from 'vitest';
import type { AgentCard, AgentRegistration } from './agent-card.js';
import { AgentRegistryView } from './agent-registry-view.js';
import { isLive, livenessWindowMs } from './liveness.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const at = (ms: number) => new Date(T0 + ms);

function card(agentId: string, instanceId: string, overrides: Partial<AgentCard> = {}): AgentCard {
  return {
    agent_id: agentId,
    name: 'SalesAgent',
    domain: 'sales',
    skills: [{ name: 'execute_order', description: 'Places an order from the catalogue' }],
    input_modes: ['TEXT'],
    output_modes: ['TEXT'],
    version: '1.0.0',
    instance_id: instanceId,
    started_at: at(0).toISOString(),
    heartbeat_interval_ms: 1_000,
    ...overrides,
  };
}

function beat(agentId: string, instanceId: string, ms: number, overrides: Partial<AgentCard> = {}): AgentRegistration {
  return { card: card(agentId, instanceId, overrides), last_heartbeat_at: at(ms).toISOString() };
}

describe('liveness', () => {
  it('is 3 heartbeat intervals by default, or the configured window', () => {
    expect(livenessWindowMs({ heartbeat_interval_ms: 5_000 })).toBe(15_000);
    expect(livenessWindowMs({ heartbeat_interval_ms: 5_000 }, 1_500)).toBe(1_500);
  });

  it('holds while the last heartbeat is at most the window old, boundary included', () => {
    const registration = beat('sales_agent', 'a', 0);
    expect(isLive(registration, at(3_000))).toBe(true);
    expect(isLive(registration, at(3_001))).toBe(false);
    expect(isLive(registration, at(1_500), 1_500)).toBe(true);
    expect(isLive(registration, at(1_501), 1_500)).toBe(false);
  });

  it('counts a heartbeat from a clock that runs ahead as fresh', () => {
    expect(isLive(beat('sales_agent', 'a', 10_000), at(0))).toBe(true);
  });
});

describe('AgentRegistryView', () => {
  it('treats an agent it never saw register as unregistered, which may be routed to', () => {
    const view = new AgentRegistryView();
    expect(view.availability('sales_agent', at(0))).toBe('unregistered');
    expect(view.mayRoute('sales_agent', at(0))).toBe(true);
    expect(view.agents(at(0))).toEqual([]);
  });

  it('is live while any instance heartbeats, and not live once every heartbeat is older than the window', () => {
    const view = new AgentRegistryView();
    view.apply('sales_agent/a', beat('sales_agent', 'a', 0));
    view.apply('sales_agent/b', beat('sales_agent', 'b', 2_000));
    expect(view.liveInstances('sales_agent', at(3_500)).map((instance) => instance.instance_id)).toEqual(['b']);
    expect(view.availability('sales_agent', at(3_500))).toBe('live');
    expect(view.availability('sales_agent', at(5_001))).toBe('not-live');
    expect(view.mayRoute('sales_agent', at(5_001))).toBe(false);
    // A later heartbeat replaces the record of its key.
    view.apply('sales_agent/a', beat('sales_agent', 'a', 5_000));
    expect(view.availability('sales_agent', at(5_001))).toBe('live');
  });

  it('forgets a deregistered instance but remembers that the agent registered', () => {
    const view = new AgentRegistryView();
    view.apply('sales_agent/a', beat('sales_agent', 'a', 0));
    view.apply('sales_agent/a', null);
    expect(view.instances('sales_agent', at(0))).toEqual([]);
    expect(view.agents(at(0))).toEqual([]);
    expect(view.availability('sales_agent', at(0))).toBe('not-live');
    // A tombstone of an instance never seen still marks the agent as known.
    view.apply('tech_pool/x', null);
    expect(view.availability('tech_pool', at(0))).toBe('not-live');
  });

  it('applies the configured window to every instance', () => {
    const view = new AgentRegistryView({ livenessWindowMs: 500 });
    view.apply('sales_agent/a', beat('sales_agent', 'a', 0));
    expect(view.availability('sales_agent', at(500))).toBe('live');
    expect(view.availability('sales_agent', at(501))).toBe('not-live');
  });

  it('ignores keys that are not <agent_id>/<instance_id>', () => {
    const view = new AgentRegistryView();
    for (const key of ['sales_agent', '/a', 'sales_agent/']) view.apply(key, beat('sales_agent', 'a', 0));
    expect(view.availability('sales_agent', at(0))).toBe('unregistered');
  });

  it('lists each agent with the newest card, liveness and every instance', () => {
    const view = new AgentRegistryView();
    view.apply('sales_agent/b', beat('sales_agent', 'b', 0, { version: '1.0.0' }));
    view.apply('sales_agent/a', beat('sales_agent', 'a', 2_000, { version: '1.1.0' }));
    const [sales] = view.agents(at(3_500));
    expect(sales).toMatchObject({ agent_id: 'sales_agent', live: true, card: { version: '1.1.0', instance_id: 'a' } });
    expect(
      sales?.instances.map(({ instance_id, live, last_heartbeat_at }) => ({ instance_id, live, last_heartbeat_at })),
    ).toEqual([
      { instance_id: 'a', live: true, last_heartbeat_at: at(2_000).toISOString() },
      { instance_id: 'b', live: false, last_heartbeat_at: at(0).toISOString() },
    ]);
  });

  it('finds agents by skill and by domain, live ones unless asked otherwise', () => {
    const view = new AgentRegistryView();
    view.apply('sales_agent/a', beat('sales_agent', 'a', 0));
    view.apply(
      'repairs/a',
      beat('repairs', 'a', 2_000, {
        name: 'IssuesAndRepairsAgent',
        domain: 'after_sales',
        skills: [{ name: 'execute_refund' }],
      }),
    );
    const ids = (agents: { agent_id: string }[]) => agents.map((agent) => agent.agent_id);
    expect(ids(view.bySkill('execute_order', at(1_000)))).toEqual(['sales_agent']);
    expect(ids(view.bySkill('execute_order', at(4_000)))).toEqual([]);
    expect(ids(view.bySkill('execute_order', at(4_000), { liveOnly: false }))).toEqual(['sales_agent']);
    expect(ids(view.byDomain('after_sales', at(4_000)))).toEqual(['repairs']);
    expect(ids(view.byDomain('nowhere', at(0)))).toEqual([]);
  });

  it('discovers live agents by card name, domain or skill', () => {
    const view = new AgentRegistryView();
    view.apply('sales_agent/a', beat('sales_agent', 'a', 0));
    view.apply('sales_backup/a', beat('sales_backup', 'a', 0, { name: 'BackupSales' }));
    expect(view.discover('SalesAgent', at(0))).toEqual(['sales_agent']);
    expect(view.discover('sales', at(0))).toEqual(['sales_agent', 'sales_backup']);
    expect(view.discover('execute_order', at(0))).toEqual(['sales_agent', 'sales_backup']);
    expect(view.discover('execute_order', at(3_001))).toEqual([]);
    expect(view.discover('EXECUTE_ORDER', at(0))).toEqual([]);
  });
});
