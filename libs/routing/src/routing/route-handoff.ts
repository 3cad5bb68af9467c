import { ROUTER_AGENT_ID, type HandoffMessage, type Immutable } from '@baton/protocol';
import {
  DEFAULT_RULE_ID,
  DISCOVERY_RULE_ID,
  RECIPIENT_RULE_ID,
  type RoutingRule,
  type RoutingTable,
} from './routing-table.js';

export type RouteDecision =
  | {
      kind: 'routed';
      targets: readonly string[];
      ruleId: string;
      /** The agents the table chose that had no live instance, replaced by the fallback; absent when none. */
      fallbackFor?: string[];
      /** Recipients the message named that it does not go to, each with why; absent when none. */
      undelivered?: Undelivered[];
    }
  | { kind: 'no-route'; reason: string }
  | { kind: 'no-live-agent'; reason: string };

/** A recipient the message named that routing did not send it to. */
export interface Undelivered {
  agent: string;
  /** `unknown`: the routing table names no such agent; `not-chosen`: a rule or the default sent it elsewhere. */
  why: 'unknown' | 'not-chosen';
}

/** The parts of a handoff message routing reads. */
export type RoutableMessage = Pick<Immutable<HandoffMessage>, 'metadata' | 'payload'>;

/** What routing knows of the agent registry at the moment of the decision. */
export interface AgentLiveness {
  /**
   * False only when the agent has registered and none of its instances is live; an agent that has
   * never registered may be routed to (its inbox keeps the message until it runs).
   */
  mayRoute(agentId: string): boolean;
  /** Live agents whose card's name, domain or a skill equals `term`, by agent_id. */
  discover(term: string): string[];
}

/** Routing without a registry: every agent may be routed to and none is discovered. */
export const WITHOUT_REGISTRY: AgentLiveness = { mayRoute: () => true, discover: () => [] };

/** What a rule is matched against, read once per message. */
interface MessageFacts {
  handoff_type: string;
  issue_category: string | undefined;
  priority: string;
  recipients: readonly string[];
}

/**
 * Decides where a handoff goes, first answer wins:
 * 1. straight to its recipients when the table knows them all (one copy each);
 * 2. the target of the first rule that matches;
 * 3. with `discovery: true`, a live agent whose card names the capability the message asks for:
 *    `payload.data.desired_agent_type` when the message has one, else each recipient_id in turn,
 *    compared with each card's name, domain and skills (the first such agent by agent_id);
 * 4. the default;
 * 5. nowhere: `no-route`, with a reason that names what was looked at.
 * An agent chosen in steps 1, 2 or 4 that has registered but has no live instance is replaced by
 * the rule's fallback, else the table's; when that has no live instance either, or there is none,
 * the decision is `no-live-agent`.
 */
export function routeHandoff(
  table: RoutingTable,
  message: RoutableMessage,
  liveness: AgentLiveness = WITHOUT_REGISTRY,
): RouteDecision {
  const { recipient_id, priority } = message.metadata;
  const recipients = typeof recipient_id === 'string' ? [recipient_id] : recipient_id;
  if (recipients.length > 0 && recipients.every((recipient) => table.agents.has(recipient))) {
    // One recipient, as most handoffs name, needs no dedupe.
    const targets = recipients.length === 1 ? recipients : [...new Set(recipients)];
    return live(targets, RECIPIENT_RULE_ID, table.fallback, liveness);
  }
  const { payload } = message;
  const facts: MessageFacts = {
    handoff_type: payload.handoff_type,
    issue_category: 'issue_category' in payload.data ? payload.data.issue_category : undefined,
    priority,
    recipients,
  };
  const rule = table.rules.find((candidate) => matches(candidate, facts));
  if (rule !== undefined) {
    const byRule = (agent: string) => rule.match.recipient_id?.has(agent) === true;
    return noting(live([rule.target], rule.id, rule.fallback ?? table.fallback, liveness), recipients, table, byRule);
  }
  if (table.discovery) {
    const discovered = discover(message, recipients, liveness);
    if (discovered !== undefined) {
      const byCapability = (term: string) => liveness.discover(term).includes(discovered);
      return noting(
        { kind: 'routed', targets: [discovered], ruleId: DISCOVERY_RULE_ID },
        recipients,
        table,
        byCapability,
      );
    }
  }
  if (table.defaultTarget !== undefined) {
    return noting(live([table.defaultTarget], DEFAULT_RULE_ID, table.fallback, liveness), recipients, table);
  }
  const category = facts.issue_category === undefined ? '(none)' : JSON.stringify(facts.issue_category);
  return {
    kind: 'no-route',
    reason:
      `no route for handoff_type ${facts.handoff_type}, issue_category ${category}, priority ${priority}, ` +
      `recipient_id ${JSON.stringify(recipient_id)}: the recipients are not all known agents, no rule matches ` +
      (table.discovery ? 'and no live agent has the capability it names, ' : '') +
      'and the table has no default',
  };
}

/**
 * The decision with the recipients it leaves out: once any recipient is unknown, a rule, discovery
 * or the default decides, and a named recipient may get nothing. Not left out: `router`, the
 * address of a message that leaves the choice to the rules, and what `resolved` says the decision
 * read as an address: a desk's name the deciding rule matched on (`match.recipient_id`), or a
 * capability discovery found the agent by.
 */
function noting(
  decision: RouteDecision,
  recipients: readonly string[],
  table: RoutingTable,
  resolved: (recipient: string) => boolean = () => false,
): RouteDecision {
  if (decision.kind !== 'routed') return decision;
  const addressed = (agent: string) =>
    agent === ROUTER_AGENT_ID ||
    decision.targets.includes(agent) ||
    decision.fallbackFor?.includes(agent) === true ||
    resolved(agent);
  const undelivered = [...new Set(recipients)]
    .filter((agent) => !addressed(agent))
    .map((agent): Undelivered => ({ agent, why: table.agents.has(agent) ? 'not-chosen' : 'unknown' }));
  return undelivered.length === 0 ? decision : { ...decision, undelivered };
}

/** The capability the message asks for, resolved to the first live agent that has it. */
function discover(
  message: RoutableMessage,
  recipients: readonly string[],
  liveness: AgentLiveness,
): string | undefined {
  const { payload } = message;
  // desired_agent_type is a TASK_TRANSFER field; no other type's data declares it.
  const desired = payload.handoff_type === 'TASK_TRANSFER' ? payload.data.desired_agent_type : undefined;
  const terms = desired === undefined ? recipients : [desired];
  for (const term of terms) {
    const [first] = liveness.discover(term);
    if (first !== undefined) return first;
  }
  return undefined;
}

/** The chosen targets with each one that has no live instance replaced by `fallback`. */
function live(
  chosen: readonly string[],
  ruleId: string,
  fallback: string | undefined,
  liveness: AgentLiveness,
): RouteDecision {
  if (chosen.every((target) => liveness.mayRoute(target))) return { kind: 'routed', targets: chosen, ruleId };
  const down = chosen.filter((target) => !liveness.mayRoute(target));
  const names = down.map((agent) => `"${agent}"`).join(', ');
  if (fallback === undefined) {
    return {
      kind: 'no-live-agent',
      reason: `${names} (${ruleStep(ruleId)}) has no live instance and no fallback is configured`,
    };
  }
  if (!liveness.mayRoute(fallback)) {
    return {
      kind: 'no-live-agent',
      reason: `${names} (${ruleStep(ruleId)}) has no live instance, nor has its fallback "${fallback}"`,
    };
  }
  const targets = [...new Set(chosen.map((target) => (down.includes(target) ? fallback : target)))];
  return { kind: 'routed', targets, ruleId, fallbackFor: down };
}

function ruleStep(ruleId: string): string {
  return ruleId === RECIPIENT_RULE_ID || ruleId === DEFAULT_RULE_ID ? `by ${ruleId}` : `rule ${ruleId}`;
}

function matches({ match }: RoutingRule, facts: MessageFacts): boolean {
  if (match.handoff_type !== undefined && !match.handoff_type.has(facts.handoff_type)) return false;
  if (match.priority !== undefined && !match.priority.has(facts.priority)) return false;
  if (match.issue_category !== undefined) {
    // A rule about a category never takes a message that states none.
    if (facts.issue_category === undefined || !match.issue_category.has(facts.issue_category)) return false;
  }
  const accepted = match.recipient_id;
  return accepted === undefined || facts.recipients.some((recipient) => accepted.has(recipient));
}
