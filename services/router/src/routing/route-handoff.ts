import type { HandoffMessage, Immutable } from '@baton/protocol';
import { DEFAULT_RULE_ID, RECIPIENT_RULE_ID, type RoutingRule, type RoutingTable } from './routing-table.js';

export type RouteDecision =
  { kind: 'routed'; targets: string[]; ruleId: string } | { kind: 'no-route'; reason: string };

/** The parts of a handoff message routing reads. */
export type RoutableMessage = Pick<Immutable<HandoffMessage>, 'metadata' | 'payload'>;

/** What a rule is matched against, read once per message. */
interface MessageFacts {
  handoff_type: string;
  issue_category: string | undefined;
  priority: string;
  recipients: readonly string[];
}

/**
 * Decides where a handoff goes: straight to its recipients when the table knows them all (one
 * copy each); else to the target of the first rule that matches; else to the default; else
 * nowhere, with a reason that names what was looked at.
 */
export function routeHandoff(table: RoutingTable, message: RoutableMessage): RouteDecision {
  const { recipient_id, priority } = message.metadata;
  const recipients = typeof recipient_id === 'string' ? [recipient_id] : recipient_id;
  if (recipients.length > 0 && recipients.every((recipient) => table.agents.has(recipient))) {
    return { kind: 'routed', targets: [...new Set(recipients)], ruleId: RECIPIENT_RULE_ID };
  }
  const { payload } = message;
  const facts: MessageFacts = {
    handoff_type: payload.handoff_type,
    issue_category: 'issue_category' in payload.data ? payload.data.issue_category : undefined,
    priority,
    recipients,
  };
  const rule = table.rules.find((candidate) => matches(candidate, facts));
  if (rule !== undefined) return { kind: 'routed', targets: [rule.target], ruleId: rule.id };
  if (table.defaultTarget !== undefined) {
    return { kind: 'routed', targets: [table.defaultTarget], ruleId: DEFAULT_RULE_ID };
  }
  const category = facts.issue_category === undefined ? '(none)' : JSON.stringify(facts.issue_category);
  return {
    kind: 'no-route',
    reason:
      `no route for handoff_type ${facts.handoff_type}, issue_category ${category}, priority ${priority}, ` +
      `recipient_id ${JSON.stringify(recipient_id)}: the recipients are not all known agents, no rule matches ` +
      'and the table has no default',
  };
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
