import type { HandoffRequest, Immutable } from '@baton/protocol';

/**
 * What a HandoffRequest's desired_agent_type is matched against: an agent's id and the names on its
 * card in the agent registry.
 */
export interface CapabilityCard {
  agent_id: string;
  name: string;
  domain: string;
  skills: readonly { readonly name: string }[];
}

export interface RequestCircumstances {
  /** The receiving agent's own card. */
  card: CapabilityCard;
  /** Handoffs waiting in the agent's inbox. */
  queued: number;
  /** Queued handoffs at which the agent refuses more; Infinity when unlimited, 0 to refuse all. */
  capacity: number;
  /** The cards of the live agents in the registry, to suggest instead when refusing. */
  liveAgents: readonly CapabilityCard[];
}

export type RequestDecision =
  { decision: 'accept' } | { decision: 'reject'; reason: string; alternative_agent_suggestions: string[] };

/**
 * Whether `card` is an agent of `desiredType`: its id, name, domain or one of its skills names it,
 * whatever the case (a sender asking for a `networkexpert` means a NetworkExpert).
 */
export function isAgentOfType(card: CapabilityCard, desiredType: string): boolean {
  const wanted = desiredType.toLowerCase();
  return [card.agent_id, card.name, card.domain, ...card.skills.map((skill) => skill.name)].some(
    (name) => name.toLowerCase() === wanted,
  );
}

/**
 * Why the receiver refuses a HandoffRequest (it is not of the desired type, or its inbox already
 * holds `capacity` handoffs), or undefined when it accepts. The live agents play no part: only a
 * refusal names them, so they need reading only for one.
 */
export function refusalOf(
  request: Immutable<HandoffRequest>,
  { card, queued, capacity }: Omit<RequestCircumstances, 'liveAgents'>,
): string | undefined {
  const desired = request.payload.desired_agent_type;
  if (!isAgentOfType(card, desired)) return `capability mismatch: ${card.agent_id} is not a ${desired}`;
  if (queued >= capacity) return `overloaded: ${queued} handoffs queued, capacity ${capacity}`;
  return undefined;
}

/**
 * A receiver's answer to a HandoffRequest addressed to it: rejected when the agent is not of the
 * desired type, or when its inbox already holds `capacity` handoffs; accepted otherwise. A
 * rejection suggests the other live agents of the desired type, by id, sorted.
 */
export function decideOnRequest(
  request: Immutable<HandoffRequest>,
  circumstances: RequestCircumstances,
): RequestDecision {
  const { card, liveAgents } = circumstances;
  const desired = request.payload.desired_agent_type;
  const refusal = refusalOf(request, circumstances);
  if (refusal === undefined) return { decision: 'accept' };
  const alternatives = liveAgents
    .filter((agent) => agent.agent_id !== card.agent_id && isAgentOfType(agent, desired))
    .map((agent) => agent.agent_id);
  return { decision: 'reject', reason: refusal, alternative_agent_suggestions: [...new Set(alternatives)].sort() };
}
