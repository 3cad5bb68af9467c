import { AgentRegistryView } from '@baton/agent-registry';
import { buildHandoff, type HandoffPayload, type HandoffType, type Priority } from '@baton/protocol';
import { describe, expect, it } from 'vitest';
import { parseRoutingTable } from './load-routing-table.js';
import { routeHandoff, type AgentLiveness, type RoutableMessage } from './route-handoff.js';

const table = parseRoutingTable(`
version: 1
agents: [triage, sales, repairs, tech, human, experts]
rules:
  - id: network
    match: { handoff_type: ESCALATION, issue_category: [NETWORK_CONNECTIVITY] }
    target: tech
  - id: critical
    match: { priority: CRITICAL }
    target: human
  - id: sales
    match: { handoff_type: [TASK_TRANSFER, NOTIFICATION], issue_category: SALES }
    target: sales
  - id: desks
    match: { recipient_id: [repairs_desk, returns_desk] }
    target: repairs
  - id: escalations
    match: { handoff_type: ESCALATION }
    target: experts
default: triage
`);

const noDefault = parseRoutingTable(`
version: 1
agents: [tech]
rules:
  - id: network
    match: { issue_category: NETWORK_CONNECTIVITY }
    target: tech
`);

const payloads = {
  escalation: (issue_category: string): HandoffPayload => ({
    handoff_type: 'ESCALATION',
    data: {
      issue_category,
      severity: 'HIGH',
      customer_info: { user_id: 'cust-1', name: 'John Doe' },
      technical_details: {},
    },
  }),
  transfer: (issue_category: string): HandoffPayload => ({
    handoff_type: 'TASK_TRANSFER',
    data: { issue_category, task_summary: 'Customer wants help' },
  }),
  notification: (issue_category?: string): HandoffPayload => ({
    handoff_type: 'NOTIFICATION',
    data: { event_type: 'ORDER_SHIPPED', message: 'Order shipped', ...(issue_category ? { issue_category } : {}) },
  }),
  infoRequest: (): HandoffPayload => ({
    handoff_type: 'REQUEST_INFORMATION',
    data: { requested_info_keys: ['order_id'] },
  }),
};

function message(
  payload: HandoffPayload,
  metadata: { recipient_id?: string | string[]; priority?: Priority } = {},
): RoutableMessage {
  return buildHandoff<HandoffType>({
    metadata: { sender_id: 'customer_service_agent_001', recipient_id: 'router', task_id: 'task-1', ...metadata },
    payload,
  });
}

describe('routeHandoff by recipient_id', () => {
  it('sends a message straight to a known recipient, before any rule', () => {
    const decision = routeHandoff(
      table,
      message(payloads.escalation('NETWORK_CONNECTIVITY'), { recipient_id: 'human' }),
    );
    expect(decision).toEqual({ kind: 'routed', targets: ['human'], ruleId: 'recipient' });
  });

  it('fans out to each of several known recipients, once each', () => {
    const decision = routeHandoff(
      table,
      message(payloads.transfer('SALES'), { recipient_id: ['sales', 'human', 'sales'] }),
    );
    expect(decision).toEqual({ kind: 'routed', targets: ['sales', 'human'], ruleId: 'recipient' });
  });

  it('goes to the rules when any recipient is unknown, and names the recipients it does not go to', () => {
    const decision = routeHandoff(table, message(payloads.transfer('SALES'), { recipient_id: ['sales', 'nobody'] }));
    expect(decision).toEqual({
      kind: 'routed',
      targets: ['sales'],
      ruleId: 'sales',
      undelivered: [{ agent: 'nobody', why: 'unknown' }],
    });
    const known = routeHandoff(
      table,
      message(payloads.transfer('SALES'), { recipient_id: ['tech', 'nobody', 'tech'] }),
    );
    expect(known).toEqual({
      kind: 'routed',
      targets: ['sales'],
      ruleId: 'sales',
      undelivered: [
        { agent: 'tech', why: 'not-chosen' },
        { agent: 'nobody', why: 'unknown' },
      ],
    });
  });

  it('leaves out no recipient when the message is addressed to the router, or to a desk a rule matched on', () => {
    expect(routeHandoff(table, message(payloads.transfer('SALES')))).not.toHaveProperty('undelivered');
    expect(routeHandoff(table, message(payloads.transfer('BILLING'), { recipient_id: ['repairs_desk'] }))).toEqual({
      kind: 'routed',
      targets: ['repairs'],
      ruleId: 'desks',
    });
    expect(
      routeHandoff(table, message(payloads.transfer('BILLING'), { recipient_id: ['repairs_desk', 'tech'] })),
    ).toEqual({
      kind: 'routed',
      targets: ['repairs'],
      ruleId: 'desks',
      undelivered: [{ agent: 'tech', why: 'not-chosen' }],
    });
  });
});

describe('routeHandoff by rules', () => {
  it('matches handoff_type and issue_category given as shorthand and as a list', () => {
    expect(routeHandoff(table, message(payloads.escalation('NETWORK_CONNECTIVITY')))).toEqual({
      kind: 'routed',
      targets: ['tech'],
      ruleId: 'network',
    });
    expect(routeHandoff(table, message(payloads.notification('SALES')))).toEqual({
      kind: 'routed',
      targets: ['sales'],
      ruleId: 'sales',
    });
  });

  it('matches priority', () => {
    const decision = routeHandoff(table, message(payloads.transfer('BILLING'), { priority: 'CRITICAL' }));
    expect(decision).toEqual({ kind: 'routed', targets: ['human'], ruleId: 'critical' });
  });

  it('takes the first rule that matches', () => {
    const critical = { priority: 'CRITICAL' } as const;
    expect(routeHandoff(table, message(payloads.escalation('NETWORK_CONNECTIVITY'), critical))).toMatchObject({
      ruleId: 'network',
    });
    expect(routeHandoff(table, message(payloads.escalation('POWER_OUTAGE'), critical))).toMatchObject({
      ruleId: 'critical',
    });
    expect(routeHandoff(table, message(payloads.escalation('POWER_OUTAGE')))).toEqual({
      kind: 'routed',
      targets: ['experts'],
      ruleId: 'escalations',
    });
  });

  it('matches recipient_id when any recipient is in the rule, known agents included', () => {
    for (const recipient_id of ['returns_desk', ['nobody', 'repairs_desk'], ['sales', 'repairs_desk']]) {
      expect(routeHandoff(table, message(payloads.transfer('BILLING'), { recipient_id }))).toMatchObject({
        kind: 'routed',
        targets: ['repairs'],
        ruleId: 'desks',
      });
    }
    // The desk is the rule's address; the others are left out, and said to be.
    const desk = (recipient_id: string[]) =>
      routeHandoff(table, message(payloads.transfer('BILLING'), { recipient_id }));
    expect(desk(['nobody', 'repairs_desk'])).toMatchObject({ undelivered: [{ agent: 'nobody', why: 'unknown' }] });
    expect(desk(['sales', 'repairs_desk'])).toMatchObject({ undelivered: [{ agent: 'sales', why: 'not-chosen' }] });
    expect(desk(['returns_desk'])).not.toHaveProperty('undelivered');
  });

  it('does not match a rule about issue_category when the message states none', () => {
    const decision = routeHandoff(table, message(payloads.notification()));
    expect(decision).toEqual({ kind: 'routed', targets: ['triage'], ruleId: 'default' });
  });

  it('falls back to the default when no rule matches', () => {
    const decision = routeHandoff(table, message(payloads.transfer('BILLING')));
    expect(decision).toEqual({ kind: 'routed', targets: ['triage'], ruleId: 'default' });
  });
});

describe('routeHandoff without a route', () => {
  it('names handoff_type, issue_category, priority and recipient_id', () => {
    const decision = routeHandoff(noDefault, message(payloads.transfer('SALES'), { recipient_id: ['tech', 'nobody'] }));
    expect(decision).toEqual({
      kind: 'no-route',
      reason:
        'no route for handoff_type TASK_TRANSFER, issue_category "SALES", priority MEDIUM, ' +
        'recipient_id ["tech","nobody"]: the recipients are not all known agents, no rule matches ' +
        'and the table has no default',
    });
  });

  it('says when the message has no issue_category', () => {
    const decision = routeHandoff(noDefault, message(payloads.infoRequest(), { priority: 'LOW' }));
    expect(decision).toEqual({
      kind: 'no-route',
      reason:
        'no route for handoff_type REQUEST_INFORMATION, issue_category (none), priority LOW, ' +
        'recipient_id "router": the recipients are not all known agents, no rule matches ' +
        'and the table has no default',
    });
  });
});

describe('routeHandoff with agent liveness', () => {
  const guarded = parseRoutingTable(`
version: 1
agents: [triage, sales, repairs, tech, human]
rules:
  - id: sales
    match: { handoff_type: TASK_TRANSFER, issue_category: SALES }
    target: sales
    fallback: human
  - id: repairs
    match: { handoff_type: TASK_TRANSFER, issue_category: REPAIR }
    target: repairs
default: triage
fallback: tech
discovery: true
`);
  /** Agents in `down` have registered and have no live instance; `skills` maps a capability to live agents. */
  const liveness = (down: string[], skills: Record<string, string[]> = {}): AgentLiveness => ({
    mayRoute: (agent) => !down.includes(agent),
    discover: (term) => skills[term] ?? [],
  });

  it('routes as before while the chosen agent is live or has never registered', () => {
    expect(routeHandoff(guarded, message(payloads.transfer('SALES')), liveness([]))).toEqual({
      kind: 'routed',
      targets: ['sales'],
      ruleId: 'sales',
    });
  });

  it("sends a rule's messages to its fallback while its target has no live instance", () => {
    expect(routeHandoff(guarded, message(payloads.transfer('SALES')), liveness(['sales']))).toEqual({
      kind: 'routed',
      targets: ['human'],
      ruleId: 'sales',
      fallbackFor: ['sales'],
    });
  });

  it("uses the table's fallback for a rule without one, for recipients and for the default", () => {
    expect(routeHandoff(guarded, message(payloads.transfer('REPAIR')), liveness(['repairs']))).toEqual({
      kind: 'routed',
      targets: ['tech'],
      ruleId: 'repairs',
      fallbackFor: ['repairs'],
    });
    expect(routeHandoff(guarded, message(payloads.transfer('BILLING')), liveness(['triage']))).toMatchObject({
      targets: ['tech'],
      ruleId: 'default',
    });
    const both = message(payloads.transfer('SALES'), { recipient_id: ['sales', 'tech', 'repairs'] });
    expect(routeHandoff(guarded, both, liveness(['sales', 'repairs']))).toEqual({
      kind: 'routed',
      targets: ['tech'],
      ruleId: 'recipient',
      fallbackFor: ['sales', 'repairs'],
    });
  });

  it('is no-live-agent when the fallback has no live instance either, or there is no fallback', () => {
    expect(routeHandoff(guarded, message(payloads.transfer('SALES')), liveness(['sales', 'human']))).toEqual({
      kind: 'no-live-agent',
      reason: '"sales" (rule sales) has no live instance, nor has its fallback "human"',
    });
    expect(routeHandoff(noDefault, message(payloads.escalation('NETWORK_CONNECTIVITY')), liveness(['tech']))).toEqual({
      kind: 'no-live-agent',
      reason: '"tech" (rule network) has no live instance and no fallback is configured',
    });
  });

  it('discovers a live agent by desired_agent_type, else by recipient, when no rule matches', () => {
    const skills = { SalesAgent: ['sales'], execute_refund: ['repairs', 'tech'] };
    const wanted = (desired_agent_type: string, recipient_id = 'router') =>
      message(
        {
          handoff_type: 'TASK_TRANSFER',
          data: { issue_category: 'BILLING', task_summary: 'Help', desired_agent_type },
        },
        { recipient_id },
      );
    expect(routeHandoff(guarded, wanted('SalesAgent'), liveness([], skills))).toEqual({
      kind: 'routed',
      targets: ['sales'],
      ruleId: 'discovery',
    });
    // desired_agent_type, when present, is what discovery looks at.
    expect(routeHandoff(guarded, wanted('Nobody', 'execute_refund'), liveness([], skills))).toMatchObject({
      ruleId: 'default',
    });
    const bySkill = message(payloads.escalation('POWER_OUTAGE'), { recipient_id: ['nobody', 'execute_refund'] });
    // The capability is the address discovery read; nobody got nothing, and the decision says so.
    expect(routeHandoff(guarded, bySkill, liveness([], skills))).toEqual({
      kind: 'routed',
      targets: ['repairs'],
      ruleId: 'discovery',
      undelivered: [{ agent: 'nobody', why: 'unknown' }],
    });
    // A rule wins over discovery, and a table without discovery never discovers.
    expect(
      routeHandoff(guarded, message(payloads.transfer('SALES')), liveness([], { SalesAgent: ['x'] })),
    ).toMatchObject({
      ruleId: 'sales',
    });
    expect(routeHandoff(table, wanted('SalesAgent'), liveness([], skills))).toMatchObject({ ruleId: 'default' });
  });

  it('reads liveness from the registry view: unregistered routes, expired falls back, withdrawn falls back', () => {
    const view = new AgentRegistryView();
    const now = new Date('2026-01-01T12:00:10.000Z');
    const card = (agent_id: string, instance_id: string) => ({
      agent_id,
      name: agent_id,
      domain: 'd',
      skills: [],
      input_modes: ['TEXT' as const],
      output_modes: ['TEXT' as const],
      version: '1',
      instance_id,
      started_at: '2026-01-01T12:00:00.000Z',
      heartbeat_interval_ms: 1_000,
    });
    const fromView: AgentLiveness = {
      mayRoute: (agent) => view.mayRoute(agent, now),
      discover: (term) => view.discover(term, now),
    };
    const sale = message(payloads.transfer('SALES'));
    expect(routeHandoff(guarded, sale, fromView)).toMatchObject({ targets: ['sales'] });
    view.apply('sales/a', { card: card('sales', 'a'), last_heartbeat_at: '2026-01-01T12:00:08.000Z' });
    expect(routeHandoff(guarded, sale, fromView)).toMatchObject({ targets: ['sales'] });
    view.apply('sales/a', { card: card('sales', 'a'), last_heartbeat_at: '2026-01-01T12:00:06.000Z' });
    expect(routeHandoff(guarded, sale, fromView)).toMatchObject({ targets: ['human'], fallbackFor: ['sales'] });
    view.apply('sales/a', null);
    expect(routeHandoff(guarded, sale, fromView)).toMatchObject({ targets: ['human'], fallbackFor: ['sales'] });
  });
});
