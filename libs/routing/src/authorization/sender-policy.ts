/** In a rule's senders, handoff_types or recipients: every value of that field. */
export const ANY = '*';

/** The senders a rule allows: the ids it names, its pools' members included, or any sender at all. */
export type AllowedSenders = ReadonlySet<string> | typeof ANY;

/**
 * One rule of a validated policy, with every pool and every `*` but the senders' already expanded:
 * it allows each sender in `senders` to send each of `handoffTypes` to each of `recipients`.
 */
export interface PolicyRule {
  readonly id: string;
  /** Position in the file's `rules` list, 0-based like the JSON Pointers in load errors. */
  readonly index: number;
  readonly senders: AllowedSenders;
  readonly handoffTypes: ReadonlySet<string>;
  /** Agents of the routing table. */
  readonly recipients: ReadonlySet<string>;
}

/**
 * Which senders may send which handoff_types to which agents of the routing table, frozen. Default
 * deny: what no rule allows is refused.
 */
export interface SenderPolicy {
  readonly rules: readonly PolicyRule[];
}

/** True when `rule` lets `sender` send a `handoffType` to `recipient`. */
export function ruleAllows(rule: PolicyRule, sender: string, handoffType: string, recipient: string): boolean {
  return (
    (rule.senders === ANY || rule.senders.has(sender)) &&
    rule.handoffTypes.has(handoffType) &&
    rule.recipients.has(recipient)
  );
}

/** True when some rule of `policy` lets `sender` send a `handoffType` to `recipient`. */
export function senderMay(policy: SenderPolicy, sender: string, handoffType: string, recipient: string): boolean {
  return policy.rules.some((rule) => ruleAllows(rule, sender, handoffType, recipient));
}

/**
 * True when `wide` allows everything `narrow` allows, so `narrow` changes nothing. Rules that are
 * only covered by several others together are not caught.
 */
export function ruleCovers(wide: PolicyRule, narrow: PolicyRule): boolean {
  const senders = wide.senders === ANY || (narrow.senders !== ANY && isSubset(narrow.senders, wide.senders));
  return senders && isSubset(narrow.handoffTypes, wide.handoffTypes) && isSubset(narrow.recipients, wide.recipients);
}

function isSubset(small: ReadonlySet<string>, large: ReadonlySet<string>): boolean {
  for (const value of small) if (!large.has(value)) return false;
  return true;
}
