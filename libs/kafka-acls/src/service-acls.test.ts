import type { AclGrant, AclOperation } from '@baton/kafka';
import { describe, expect, it } from 'vitest';
import { serviceAcls } from './service-acls.js';
import { batonTopology, type Topology } from './topology.js';

const SHORT: Record<string, AclOperation> = {
  R: 'read',
  W: 'write',
  C: 'create',
  D: 'describe',
  DC: 'describe-configs',
};

/** A grant written short: `['topic', 'literal', 'p.events', 'R W C D DC']`. */
type Row = [AclGrant['resourceType'], AclGrant['patternType'], string, string];

function grants(rows: Row[]): AclGrant[] {
  return rows.map(([resourceType, patternType, name, operations]) => ({
    resourceType,
    patternType,
    name,
    operations: operations.split(' ').map((code) => SHORT[code]!),
  }));
}

const SMALL: Topology = {
  services: [
    { service: 'router', kind: 'router' },
    { service: 'tracker', kind: 'tracker' },
    { service: 'gateway', kind: 'gateway' },
    { service: 'a-agent', kind: 'agent', agentId: 'a', stateTopics: ['state'], negotiatesWith: ['b'] },
    { service: 'b-agent', kind: 'agent', agentId: 'b' },
  ],
};

describe('serviceAcls', () => {
  const acls = serviceAcls(SMALL, { prefix: 'p', principals: { 'b-agent': 'bee' } });
  const of = (service: string) => acls.find((entry) => entry.service === service)!;

  it('gives each service a principal named after it, unless overridden', () => {
    expect(acls.map(({ service, principal }) => [service, principal])).toEqual([
      ['router', 'User:router'],
      ['tracker', 'User:tracker'],
      ['gateway', 'User:gateway'],
      ['a-agent', 'User:a-agent'],
      ['b-agent', 'User:bee'],
    ]);
  });

  it('router: consumes the inbound topic, writes every inbox and the events, reads the registry', () => {
    expect(of('router').grants).toEqual(
      grants([
        ['topic', 'literal', 'p.handoffs.inbound', 'R C D DC'],
        ['topic', 'literal', 'p.handoffs.inbound.dlq', 'W C D DC'],
        ['topic', 'literal', 'p.handoffs.inbound.processed', 'R W C D DC'],
        ['topic', 'literal', 'p.agent.a.inbox', 'W C D DC'],
        ['topic', 'literal', 'p.agent.b.inbox', 'W C D DC'],
        ['topic', 'literal', 'p.events', 'W C D DC'],
        ['topic', 'literal', 'p.agents', 'R C D DC'],
        ['group', 'literal', 'p.router', 'R'],
        ['group', 'prefixed', 'p.router.', 'R'],
        ['transactional-id', 'prefixed', 'p.router.', 'W D'],
      ]),
    );
  });

  it("tracker: reads and writes the events, writes (and creates) the agents' control topics", () => {
    expect(of('tracker').grants).toEqual(
      grants([
        ['topic', 'literal', 'p.events', 'R W C D DC'],
        ['topic', 'literal', 'p.agent.a.control', 'W C D DC'],
        ['topic', 'literal', 'p.agent.a.control.dlq', 'C D DC'],
        ['topic', 'literal', 'p.agent.a.control.processed', 'C D DC'],
        ['topic', 'literal', 'p.agent.b.control', 'W C D DC'],
        ['topic', 'literal', 'p.agent.b.control.dlq', 'C D DC'],
        ['topic', 'literal', 'p.agent.b.control.processed', 'C D DC'],
        ['group', 'prefixed', 'p.tracker.', 'R'],
        ['transactional-id', 'prefixed', 'p.tracker.', 'W D'],
      ]),
    );
  });

  it('gateway: publishes, replays, reads timelines and replies, dead letters, audit and registry, opens negotiations', () => {
    expect(of('gateway').grants).toEqual(
      grants([
        ['topic', 'literal', 'p.handoffs.inbound', 'W C D DC'],
        ['topic', 'literal', 'p.agent.a.inbox', 'W'],
        ['topic', 'literal', 'p.agent.b.inbox', 'W'],
        ['topic', 'literal', 'p.events', 'R W C D DC'],
        ['topic', 'literal', 'p.user.replies', 'R C D DC'],
        ['topic', 'literal', 'p.contexts', 'W C D DC'],
        ['topic', 'literal', 'p.audit', 'R W C D DC'],
        ['topic', 'literal', 'p.agents', 'R C D DC'],
        ['topic', 'literal', 'p.handoffs.inbound.dlq', 'R'],
        ['topic', 'literal', 'p.agent.a.inbox.dlq', 'R'],
        ['topic', 'literal', 'p.agent.a.control', 'W C D DC'],
        ['topic', 'literal', 'p.agent.a.control.dlq', 'R C D DC'],
        ['topic', 'literal', 'p.agent.a.control.processed', 'C D DC'],
        ['topic', 'literal', 'p.agent.b.inbox.dlq', 'R'],
        ['topic', 'literal', 'p.agent.b.control', 'W C D DC'],
        ['topic', 'literal', 'p.agent.b.control.dlq', 'R C D DC'],
        ['topic', 'literal', 'p.agent.b.control.processed', 'C D DC'],
        ['group', 'literal', 'p.router', 'D'],
        ['group', 'literal', 'p.agent.a', 'D'],
        ['group', 'literal', 'p.agent.b', 'D'],
        ['group', 'prefixed', 'p.gateway.', 'R'],
        ['transactional-id', 'prefixed', 'p.gateway.', 'W D'],
      ]),
    );
  });

  it('an agent that negotiates: its own topics, the shared outputs, its state topic, its receivers’ control topics', () => {
    expect(of('a-agent').grants).toEqual(
      grants([
        ['topic', 'literal', 'p.agent.a.inbox', 'R W C D DC'],
        ['topic', 'literal', 'p.agent.a.inbox.dlq', 'W C D DC'],
        ['topic', 'literal', 'p.agent.a.inbox.processed', 'R W C D DC'],
        ['topic', 'literal', 'p.agent.a.control', 'R C D DC'],
        ['topic', 'literal', 'p.agent.a.control.dlq', 'W C D DC'],
        ['topic', 'literal', 'p.agent.a.control.processed', 'R W C D DC'],
        ['topic', 'literal', 'p.handoffs.inbound', 'W C D DC'],
        ['topic', 'literal', 'p.events', 'W C D DC'],
        ['topic', 'literal', 'p.ledger', 'W C D DC'],
        ['topic', 'literal', 'p.user.replies', 'W C D DC'],
        ['topic', 'literal', 'p.agents', 'R W C D DC'],
        ['topic', 'literal', 'p.contexts', 'R W C D DC'],
        ['topic', 'literal', 'p.agent.a.state', 'R W C D DC'],
        ['topic', 'literal', 'p.agent.b.control', 'W C D DC'],
        ['topic', 'literal', 'p.agent.b.control.dlq', 'C D DC'],
        ['topic', 'literal', 'p.agent.b.control.processed', 'C D DC'],
        ['group', 'literal', 'p.agent.a', 'R'],
        ['group', 'prefixed', 'p.agent.a.', 'R'],
        ['transactional-id', 'prefixed', 'p.agent.a.', 'W D'],
        ['group', 'prefixed', 'p.contexts.reader.', 'R'],
      ]),
    );
  });

  it('an agent that only receives: no write on contexts, no other control topic', () => {
    expect(of('b-agent').grants).toEqual(
      grants([
        ['topic', 'literal', 'p.agent.b.inbox', 'R W C D DC'],
        ['topic', 'literal', 'p.agent.b.inbox.dlq', 'W C D DC'],
        ['topic', 'literal', 'p.agent.b.inbox.processed', 'R W C D DC'],
        ['topic', 'literal', 'p.agent.b.control', 'R C D DC'],
        ['topic', 'literal', 'p.agent.b.control.dlq', 'W C D DC'],
        ['topic', 'literal', 'p.agent.b.control.processed', 'R W C D DC'],
        ['topic', 'literal', 'p.handoffs.inbound', 'W C D DC'],
        ['topic', 'literal', 'p.events', 'W C D DC'],
        ['topic', 'literal', 'p.ledger', 'W C D DC'],
        ['topic', 'literal', 'p.user.replies', 'W C D DC'],
        ['topic', 'literal', 'p.agents', 'R W C D DC'],
        ['topic', 'literal', 'p.contexts', 'R C D DC'],
        ['group', 'literal', 'p.agent.b', 'R'],
        ['group', 'prefixed', 'p.agent.b.', 'R'],
        ['transactional-id', 'prefixed', 'p.agent.b.', 'W D'],
        ['group', 'prefixed', 'p.contexts.reader.', 'R'],
      ]),
    );
  });

  it("uses the prefix 'baton' by default", () => {
    const [router] = serviceAcls({ services: [{ service: 'router', kind: 'router' }] });
    expect(router!.grants[0]).toEqual(grants([['topic', 'literal', 'baton.handoffs.inbound', 'R C D DC']])[0]);
  });

  it('refuses a bad prefix, a service or agent id listed twice, an agent id with a dot, an unknown receiver', () => {
    expect(() => serviceAcls(SMALL, { prefix: 'a b' })).toThrow('"a b" is not a legal topic prefix');
    const twice: Topology = { services: [SMALL.services[0]!, SMALL.services[0]!] };
    expect(() => serviceAcls(twice)).toThrow('service "router" is listed twice');
    expect(() =>
      serviceAcls({
        services: [
          { service: 'x', kind: 'agent', agentId: 'a' },
          { service: 'y', kind: 'agent', agentId: 'a' },
        ],
      }),
    ).toThrow('agent id "a" is listed twice');
    expect(() => serviceAcls({ services: [{ service: 'x', kind: 'agent', agentId: 'a.b' }] })).toThrow(
      'agent id "a.b" of x must match [a-zA-Z0-9_-]+',
    );
    expect(() =>
      serviceAcls({ services: [{ service: 'x', kind: 'agent', agentId: 'a', negotiatesWith: ['zz'] }] }),
    ).toThrow('x negotiates with "zz", which is no agent of the topology');
  });
});

describe("serviceAcls of Baton's own topology", () => {
  const topology = batonTopology();
  const acls = serviceAcls(topology, { prefix: 'baton' });
  const agents = topology.services.flatMap((service) => (service.kind === 'agent' ? [service] : []));
  const allows = (service: string, operation: AclOperation, topic: string) =>
    acls
      .find((entry) => entry.service === service)!
      .grants.some(
        (grant) =>
          grant.resourceType === 'topic' &&
          (grant.patternType === 'literal' ? grant.name === topic : topic.startsWith(grant.name)) &&
          grant.operations.includes(operation),
      );

  it('grants nothing on the cluster, and no topic by prefix', () => {
    for (const { grants } of acls) {
      expect(grants.filter((grant) => grant.resourceType === 'cluster')).toEqual([]);
      expect(grants.filter((grant) => grant.resourceType === 'topic' && grant.patternType === 'prefixed')).toEqual([]);
    }
  });

  it('ends every prefixed pattern with a dot, so no agent reaches a longer agent id', () => {
    for (const { grants } of acls) {
      for (const grant of grants.filter((entry) => entry.patternType === 'prefixed')) expect(grant.name).toMatch(/\.$/);
    }
  });

  it("lets no agent read or write another agent's inbox, control topic or dead letters", () => {
    for (const agent of agents) {
      for (const other of agents.filter((entry) => entry !== agent)) {
        const base = `baton.agent.${other.agentId}`;
        for (const topic of [`${base}.inbox`, `${base}.inbox.dlq`, `${base}.control.dlq`, `${base}.control`]) {
          expect(allows(agent.service, 'read', topic), `${agent.service} reads ${topic}`).toBe(false);
        }
        for (const topic of [
          `${base}.inbox`,
          `${base}.inbox.dlq`,
          `${base}.control.dlq`,
          'baton.handoffs.inbound.dlq',
        ]) {
          expect(allows(agent.service, 'write', topic), `${agent.service} writes ${topic}`).toBe(false);
        }
        expect(allows(agent.service, 'write', `${base}.control`)).toBe(
          (agent.negotiatesWith ?? []).includes(other.agentId),
        );
      }
    }
  });

  it("gives every agent its own inbox and the router's inbound topic", () => {
    for (const agent of agents) {
      expect(allows(agent.service, 'read', `baton.agent.${agent.agentId}.inbox`)).toBe(true);
      expect(allows(agent.service, 'write', 'baton.handoffs.inbound')).toBe(true);
      expect(allows('router', 'write', `baton.agent.${agent.agentId}.inbox`)).toBe(true);
    }
  });
});
