import { buildHandoff, type HandoffPayload } from '@baton/protocol';
import { describe, expect, it } from 'vitest';
import { parseRoutingTable } from '../routing/load-routing-table.js';
import { routeHandoff, type AgentLiveness } from '../routing/route-handoff.js';
import { authorizeDispatch } from './authorize-dispatch.js';
import { parseSenderPolicy } from './load-sender-policy.js';

const table = parseRoutingTable(`
version: 1
agents: [triage, sales, tech, experts, human]
rules:
  - id: network
    match: { handoff_type: ESCALATION, issue_category: NETWORK_CONNECTIVITY }
    target: tech
    fallback: human
default: triage
`);

const policy = parseSenderPolicy(
  `
version: 1
external_senders: [portal]
pools:
  frontline: [triage, portal]
rules:
  - id: frontline-escalates
    senders: [frontline]
    handoff_types: [ESCALATION]
    recipients: [tech, experts]
  - id: tech-escalates
    senders: [tech]
    handoff_types: [ESCALATION]
    recipients: [experts, human]
  - id: anyone-to-triage
    senders: '*'
    handoff_types: [TASK_TRANSFER]
    recipients: [triage]
`,
  table,
);

const escalation: HandoffPayload = {
  handoff_type: 'ESCALATION',
  data: {
    issue_category: 'NETWORK_CONNECTIVITY',
    severity: 'HIGH',
    customer_info: { user_id: 'cust-1', name: 'John Doe' },
    technical_details: {},
  },
};
const transfer: HandoffPayload = {
  handoff_type: 'TASK_TRANSFER',
  data: { issue_category: 'GENERAL_SUPPORT', task_summary: 'Help' },
};
const notification: HandoffPayload = {
  handoff_type: 'NOTIFICATION',
  data: { event_type: 'PING', message: 'hello' },
};

function message(sender_id: string, recipient_id: string | string[], payload: HandoffPayload = escalation) {
  return buildHandoff({ metadata: { sender_id, recipient_id, task_id: 'task-1' }, payload });
}

/** Liveness where the agents in `down` have registered and have no live instance. */
function liveness(down: string[] = []): AgentLiveness {
  return { mayRoute: (agent) => !down.includes(agent), discover: () => [] };
}

/** The router's two steps: the routing decision, then the policy on each of its targets. */
function authorize(handoff: ReturnType<typeof message>, down: string[] = []) {
  const decision = routeHandoff(table, handoff, liveness(down));
  if (decision.kind !== 'routed') throw new Error(`not routed: ${decision.reason}`);
  return authorizeDispatch(policy, handoff, decision);
}

describe('authorizeDispatch', () => {
  it('allows a sender a rule names, by its id or as a member of a pool', () => {
    expect(authorize(message('tech', 'experts'))).toEqual({ kind: 'allowed' });
    expect(authorize(message('triage', 'tech'))).toEqual({ kind: 'allowed' });
    expect(authorize(message('portal', 'nobody_known'))).toEqual({ kind: 'allowed' });
  });

  it('allows any sender, named in the policy or not, where a rule says "*"', () => {
    expect(authorize(message('a_stranger', 'triage', transfer))).toEqual({ kind: 'allowed' });
  });

  it('refuses a sender no rule names, a handoff_type or a recipient its rules leave out, naming all three', () => {
    expect(authorize(message('a_stranger', 'tech'))).toEqual({
      kind: 'refused',
      sender: 'a_stranger',
      handoffType: 'ESCALATION',
      recipient: 'tech',
      reason:
        'sender "a_stranger" may not send ESCALATION to "tech" (routed by recipient): no rule of the sender policy allows it',
    });
    expect(authorize(message('tech', 'sales', transfer))).toMatchObject({
      kind: 'refused',
      recipient: 'sales',
      reason:
        'sender "tech" may not send TASK_TRANSFER to "sales" (routed by recipient): no rule of the sender policy allows it',
    });
    expect(authorize(message('triage', 'human'))).toMatchObject({ kind: 'refused', recipient: 'human' });
  });

  it('refuses the whole handoff when one of its recipients is not allowed, naming that one', () => {
    expect(authorize(message('tech', ['experts', 'human']))).toEqual({ kind: 'allowed' });
    expect(authorize(message('triage', ['experts', 'human', 'tech']))).toMatchObject({
      kind: 'refused',
      recipient: 'human',
    });
  });

  it('checks the agent a rule routed to, and the default', () => {
    expect(authorize(message('portal', 'network_team'))).toEqual({ kind: 'allowed' });
    expect(authorize(message('tech', 'network_team', notification))).toMatchObject({
      kind: 'refused',
      reason:
        'sender "tech" may not send NOTIFICATION to "triage" (routed by default): no rule of the sender policy allows it',
    });
  });

  it('checks the fallback that stands in for an agent with no live instance', () => {
    // tech may escalate to the human fallback; triage may not, though it may escalate to tech.
    expect(authorize(message('tech', 'network_team'), ['tech'])).toEqual({ kind: 'allowed' });
    expect(authorize(message('triage', 'network_team'), ['tech'])).toEqual({
      kind: 'refused',
      sender: 'triage',
      handoffType: 'ESCALATION',
      recipient: 'human',
      reason:
        'sender "triage" may not send ESCALATION to "human" (routed by rule network, the fallback standing in for "tech"): ' +
        'no rule of the sender policy allows it',
    });
  });
});
