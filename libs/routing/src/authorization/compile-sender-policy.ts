import { HANDOFF_TYPES } from '@baton/protocol';
import { checkFields, isMapping, isName, list, type Path } from '../routing/config-fields.js';
import { pointer, ruleLabel, type TableProblem } from '../routing/table-problem.js';
import { ANY, ruleCovers, type PolicyRule, type SenderPolicy } from './sender-policy.js';

/** The format version this router reads; a new format gets a new number so an old router refuses it. */
export const SENDER_POLICY_VERSION = 1;

const POLICY_FIELDS = ['version', 'pools', 'external_senders', 'rules'] as const;
const RULE_FIELDS = ['id', 'senders', 'handoff_types', 'recipients'] as const;

export type PolicyCompileResult = { ok: true; policy: SenderPolicy } | { ok: false; problems: TableProblem[] };

/** The names a rule's senders may use. */
interface SenderNames {
  readonly agents: ReadonlySet<string>;
  readonly external: ReadonlySet<string>;
  /** Each pool's members; undefined for a pool with problems of its own, already reported. */
  readonly pools: ReadonlyMap<string, ReadonlySet<string> | undefined>;
}

/** Turns one listed value into the values it stands for, or records why it cannot (undefined). */
type Resolve = (item: string, at: string) => readonly string[] | undefined;

/**
 * Checks a parsed sender policy against the routing table's `agents`, collecting every problem
 * rather than stopping at the first, and compiles it into its frozen form when there are none.
 */
export function compileSenderPolicy(value: unknown, agents: ReadonlySet<string>): PolicyCompileResult {
  if (!isMapping(value)) {
    return { ok: false, problems: [{ path: '', message: `the policy must be a mapping of ${list(POLICY_FIELDS)}` }] };
  }
  const problems: TableProblem[] = [];
  checkFields(value, POLICY_FIELDS, [], 'the policy', problems);
  if (value.version !== SENDER_POLICY_VERSION) {
    problems.push({ path: '/version', message: `version must be ${SENDER_POLICY_VERSION}` });
  }
  const external = readExternalSenders(value, agents, problems);
  const pools = readPools(value, agents, external, problems);
  const rules = readRules(value.rules, { agents, external, pools }, problems);
  findUnreachableRules(rules, problems);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, policy: Object.freeze({ rules: Object.freeze(rules) }) };
}

function readExternalSenders(
  policy: Record<string, unknown>,
  agents: ReadonlySet<string>,
  problems: TableProblem[],
): ReadonlySet<string> {
  const external = new Set<string>();
  if (!Object.hasOwn(policy, 'external_senders')) return external;
  const value = policy.external_senders;
  if (!Array.isArray(value)) {
    problems.push({
      path: '/external_senders',
      message: 'external_senders must be a list of sender ids that are not agents of the routing table',
    });
    return external;
  }
  value.forEach((sender: unknown, index) => {
    const path = pointer('external_senders', index);
    if (!isName(sender) || sender === ANY) {
      problems.push({ path, message: 'an external sender must be a non-empty string other than "*"' });
    } else if (agents.has(sender)) {
      problems.push({ path, message: `external sender "${sender}" is an agent of the routing table; name it as such` });
    } else if (external.has(sender)) {
      problems.push({ path, message: `external sender "${sender}" is listed twice` });
    } else {
      external.add(sender);
    }
  });
  return external;
}

function readPools(
  policy: Record<string, unknown>,
  agents: ReadonlySet<string>,
  external: ReadonlySet<string>,
  problems: TableProblem[],
): ReadonlyMap<string, ReadonlySet<string> | undefined> {
  const pools = new Map<string, ReadonlySet<string> | undefined>();
  if (!Object.hasOwn(policy, 'pools')) return pools;
  const value = policy.pools;
  if (!isMapping(value)) {
    problems.push({ path: '/pools', message: 'pools must be a mapping of pool names to lists of senders' });
    return pools;
  }
  const names = new Set(Object.keys(value));
  for (const [name, members] of Object.entries(value)) {
    const path = pointer('pools', name);
    const before = problems.length;
    if (name === ANY) {
      problems.push({ path, message: 'a pool cannot be named "*", which stands for any sender' });
    } else if (agents.has(name)) {
      problems.push({
        path,
        message: `pool "${name}" shadows the agent "${name}": a rule naming it would mean either`,
      });
    } else if (external.has(name)) {
      problems.push({ path, message: `pool "${name}" shadows the external sender "${name}"` });
    }
    const owner = `pool "${name}"`;
    const ids = readList(
      members,
      ['pools', name],
      owner,
      problems,
      (member, at) => {
        if (member === ANY) {
          problems.push({ path: at, message: `${owner}: "*" is not a sender; name the pool's members` });
          return undefined;
        }
        if (agents.has(member) || external.has(member)) return [member];
        problems.push({
          path: at,
          message: names.has(member)
            ? `${owner}: "${member}" is a pool; pools do not nest, list its members`
            : `${owner}: "${member}" is neither an agent of the routing table nor an external sender`,
        });
        return undefined;
      },
      { anyValue: false },
    );
    pools.set(name, problems.length === before && ids !== ANY ? ids : undefined);
  }
  return pools;
}

function readRules(value: unknown, names: SenderNames, problems: TableProblem[]): PolicyRule[] {
  if (!Array.isArray(value) || value.length === 0) {
    problems.push({
      path: '/rules',
      message: 'rules must be a non-empty list: a policy without rules would refuse every handoff',
    });
    return [];
  }
  const ids = new Map<string, number>();
  const rules: PolicyRule[] = [];
  value.forEach((entry: unknown, index) => {
    const rule = readRule(entry, index, names, ids, problems);
    if (rule !== undefined) rules.push(rule);
  });
  return rules;
}

/** The rule at `index`, or undefined when it has problems (all of which are recorded). */
function readRule(
  entry: unknown,
  index: number,
  names: SenderNames,
  ids: Map<string, number>,
  problems: TableProblem[],
): PolicyRule | undefined {
  const path: Path = ['rules', index];
  if (!isMapping(entry)) {
    problems.push({ path: pointer(...path), message: `rule ${index} must be a mapping of ${list(RULE_FIELDS)}` });
    return undefined;
  }
  const before = problems.length;
  const label = ruleLabel(index, entry.id);
  checkFields(entry, RULE_FIELDS, path, label, problems);
  const id = readId(entry.id, index, label, ids, problems);
  const senders = readList(entry.senders, [...path, 'senders'], `${label}: senders`, problems, (sender, at) =>
    resolveSender(sender, at, label, names, problems),
  );
  const handoffTypes = readList(
    entry.handoff_types,
    [...path, 'handoff_types'],
    `${label}: handoff_types`,
    problems,
    (type, at) => {
      if ((HANDOFF_TYPES as readonly string[]).includes(type)) return [type];
      problems.push({ path: at, message: `${label}: handoff_type "${type}" is not one of ${list(HANDOFF_TYPES)}` });
      return undefined;
    },
  );
  const recipients = readList(
    entry.recipients,
    [...path, 'recipients'],
    `${label}: recipients`,
    problems,
    (agent, at) => {
      if (names.agents.has(agent)) return [agent];
      problems.push({
        path: at,
        message: `${label}: recipient "${agent}" is not an agent of the routing table, so the router never sends it anything`,
      });
      return undefined;
    },
  );
  if (problems.length > before) return undefined;
  if (id === undefined || senders === undefined || handoffTypes === undefined || recipients === undefined) {
    return undefined;
  }
  return Object.freeze({
    id,
    index,
    senders,
    handoffTypes: handoffTypes === ANY ? new Set<string>(HANDOFF_TYPES) : handoffTypes,
    recipients: recipients === ANY ? names.agents : recipients,
  });
}

function resolveSender(
  sender: string,
  at: string,
  label: string,
  names: SenderNames,
  problems: TableProblem[],
): readonly string[] | undefined {
  if (names.pools.has(sender)) {
    const members = names.pools.get(sender);
    // A pool with problems has had them reported where it is defined.
    return members === undefined ? undefined : [...members];
  }
  if (names.agents.has(sender) || names.external.has(sender)) return [sender];
  problems.push({
    path: at,
    message: `${label}: sender "${sender}" is not an agent of the routing table, a pool or an external sender`,
  });
  return undefined;
}

function readId(
  value: unknown,
  index: number,
  label: string,
  ids: Map<string, number>,
  problems: TableProblem[],
): string | undefined {
  const path = pointer('rules', index, 'id');
  if (!isName(value)) {
    problems.push({ path, message: `${label} needs an id, a non-empty string` });
    return undefined;
  }
  const first = ids.get(value);
  if (first !== undefined) problems.push({ path, message: `${label} repeats the id of rule ${first}` });
  else ids.set(value, index);
  return value;
}

/**
 * `*` alone (unless `anyValue` is false), one value as shorthand, or a non-empty list of values,
 * each resolved to the values it stands for (a pool to its members). Undefined when any part has a
 * problem, which is recorded.
 */
function readList(
  value: unknown,
  path: Path,
  owner: string,
  problems: TableProblem[],
  resolve: Resolve,
  { anyValue = true } = {},
): ReadonlySet<string> | typeof ANY | undefined {
  const shorthand = typeof value === 'string';
  const items: unknown[] | undefined = shorthand ? [value] : Array.isArray(value) ? value : undefined;
  if (items === undefined || items.length === 0) {
    const shapes = anyValue ? '"*", a value or a non-empty list of values' : 'a non-empty list of values';
    problems.push({ path: pointer(...path), message: `${owner} must be ${shapes}` });
    return undefined;
  }
  if (anyValue && items.includes(ANY)) {
    if (items.length === 1) return ANY;
    problems.push({ path: pointer(...path), message: `${owner}: "*" stands for every value; list nothing beside it` });
    return undefined;
  }
  let complete = true;
  const listed = new Set<string>();
  const values = new Set<string>();
  items.forEach((item, index) => {
    const at = shorthand ? pointer(...path) : pointer(...path, index);
    if (!isName(item)) {
      problems.push({ path: at, message: `${owner} values must be non-empty strings` });
      complete = false;
      return;
    }
    if (listed.has(item)) {
      problems.push({ path: at, message: `${owner}: "${item}" is listed twice` });
      complete = false;
      return;
    }
    listed.add(item);
    const resolved = resolve(item, at);
    if (resolved === undefined) complete = false;
    else for (const resolvedValue of resolved) values.add(resolvedValue);
  });
  return complete ? values : undefined;
}

/**
 * A rule that another rule already covers allows nothing of its own: it can never be the reason
 * a handoff passes, and usually means one of the two says less than was meant. Of two equal rules
 * the later one is reported.
 */
function findUnreachableRules(rules: readonly PolicyRule[], problems: TableProblem[]): void {
  for (const rule of rules) {
    const cover = rules.find(
      (other) => other !== rule && ruleCovers(other, rule) && (other.index < rule.index || !ruleCovers(rule, other)),
    );
    if (cover !== undefined) {
      problems.push({
        path: pointer('rules', rule.index),
        message: `${ruleLabel(rule.index, rule.id)} is unreachable: ${ruleLabel(cover.index, cover.id)} already allows everything it allows`,
      });
    }
  }
}
