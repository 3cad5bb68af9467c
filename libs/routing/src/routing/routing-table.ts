/** The message fields a rule may constrain, in the order they are documented and reported. */
export const MATCH_FIELDS = ['handoff_type', 'issue_category', 'priority', 'recipient_id'] as const;

export type MatchField = (typeof MATCH_FIELDS)[number];

/** A rule's constraints, each the set of accepted values; an absent field accepts any value. */
export type RuleMatch = { readonly [F in MatchField]?: ReadonlySet<string> };

export interface RoutingRule {
  readonly id: string;
  /** Position in the file's `rules` list, 0-based like the JSON Pointers in load errors. */
  readonly index: number;
  readonly match: RuleMatch;
  readonly target: string;
  /** Where the rule's messages go while `target` has no live instance; else the table's fallback. */
  readonly fallback: string | undefined;
}

/**
 * A validated table, frozen, with every accepted value already in a set: routing a message is
 * a handful of set lookups.
 */
export interface RoutingTable {
  readonly agents: ReadonlySet<string>;
  readonly rules: readonly RoutingRule[];
  readonly defaultTarget: string | undefined;
  /** Where a message goes when the agent chosen for it has no live instance (and its rule names no fallback). */
  readonly fallback: string | undefined;
  /** Whether unmatched messages are offered to live agents by the capability they name (see routeHandoff). */
  readonly discovery: boolean;
}

/** The ruleId of a decision taken from metadata.recipient_id rather than from a rule. */
export const RECIPIENT_RULE_ID = 'recipient';

/** The ruleId of a decision taken from the table's default. */
export const DEFAULT_RULE_ID = 'default';

/** The ruleId of a decision taken by discovery: a live agent with the capability the message names. */
export const DISCOVERY_RULE_ID = 'discovery';
