import { describe, expect, it } from 'vitest';
import { buildLifecycleMessage } from '@baton/protocol';
import {
  decideOnRequest,
  isAgentOfType,
  refusalOf,
  type CapabilityCard,
  type RequestCircumstances,
} from './decide-on-request.js';

function card(agentId: string, extra: Partial<CapabilityCard> = {}): CapabilityCard {
  return { agent_id: agentId, name: agentId.toUpperCase(), domain: 'default', skills: [], ...extra };
}

function request(desiredAgentType: string) {
  return buildLifecycleMessage('HandoffRequest', {
    sender_id: 'customer_service_agent',
    receiver_id: 'net_expert',
    task_id: 'task-1',
    payload: {
      reason: 'needs a specialist',
      desired_agent_type: desiredAgentType,
      priority: 'HIGH',
      initial_context_summary: 'DHCP',
    },
  });
}

const self = card('net_expert', { name: 'NetworkExpertAgent', domain: 'network', skills: [{ name: 'NetworkExpert' }] });

function circumstances(extra: Partial<RequestCircumstances> = {}): RequestCircumstances {
  return { card: self, queued: 0, capacity: Number.POSITIVE_INFINITY, liveAgents: [], ...extra };
}

describe('isAgentOfType', () => {
  it.each(['net_expert', 'NetworkExpertAgent', 'network', 'NetworkExpert', 'networkexpert', 'NETWORK'])(
    'an agent is of the type its id, name, domain or a skill names, whatever the case: %s',
    (type) => expect(isAgentOfType(self, type)).toBe(true),
  );

  it('and of no other', () => {
    expect(isAgentOfType(self, 'Sales')).toBe(false);
    expect(isAgentOfType(self, 'Network Expert')).toBe(false);
  });
});

describe('refusalOf', () => {
  it('names why a request is refused, from the card and the capacity alone', () => {
    expect(refusalOf(request('Sales'), circumstances())).toBe('capability mismatch: net_expert is not a Sales');
    expect(refusalOf(request('network'), circumstances({ queued: 3, capacity: 3 }))).toBe(
      'overloaded: 3 handoffs queued, capacity 3',
    );
    expect(refusalOf(request('network'), circumstances({ queued: 2, capacity: 3 }))).toBeUndefined();
  });
});

describe('decideOnRequest', () => {
  it('accepts a request for a type the agent is, under capacity', () => {
    expect(decideOnRequest(request('networkexpert'), circumstances({ queued: 2, capacity: 3 }))).toEqual({
      decision: 'accept',
    });
  });

  it('rejects a request for another type of agent, naming it', () => {
    expect(decideOnRequest(request('SalesAgent'), circumstances())).toEqual({
      decision: 'reject',
      reason: 'capability mismatch: net_expert is not a SalesAgent',
      alternative_agent_suggestions: [],
    });
  });

  it('rejects when the queued handoffs reach the capacity', () => {
    expect(decideOnRequest(request('NetworkExpert'), circumstances({ queued: 3, capacity: 3 }))).toMatchObject({
      decision: 'reject',
      reason: 'overloaded: 3 handoffs queued, capacity 3',
    });
  });

  it('rejects everything at capacity 0: a drain', () => {
    expect(decideOnRequest(request('NetworkExpert'), circumstances({ queued: 0, capacity: 0 }))).toMatchObject({
      decision: 'reject',
      reason: 'overloaded: 0 handoffs queued, capacity 0',
    });
  });

  it('reports a mismatch before an overload', () => {
    expect(decideOnRequest(request('Sales'), circumstances({ capacity: 0 }))).toMatchObject({
      reason: 'capability mismatch: net_expert is not a Sales',
    });
  });

  it('suggests the other live agents of the desired type, by id, sorted, case aside', () => {
    const liveAgents = [
      card('zeta_expert', { skills: [{ name: 'networkEXPERT' }] }),
      self,
      card('sales_agent', { domain: 'sales' }),
      card('alpha_expert', { domain: 'NetworkExpert' }),
      card('NetworkExpert'),
      card('alpha_expert', { domain: 'NetworkExpert' }),
    ];
    expect(decideOnRequest(request('NetworkExpert'), circumstances({ capacity: 0, liveAgents }))).toEqual({
      decision: 'reject',
      reason: 'overloaded: 0 handoffs queued, capacity 0',
      alternative_agent_suggestions: ['NetworkExpert', 'alpha_expert', 'zeta_expert'],
    });
  });
});
