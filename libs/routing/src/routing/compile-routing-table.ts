import { HANDOFF_TYPES, PRIORITIES } from '@baton/protocol';
import { subsumes } from './rule-subsumes.js';
import {
  DEFAULT_RULE_ID,
  DISCOVERY_RULE_ID,
  MATCH_FIELDS,
  RECIPIENT_RULE_ID,
  type MatchField,
  type RoutingRule,
  type RoutingTable,
  type RuleMatch,
} from './routing-table.js';
import { checkFields, isMapping, isName, list, type Path } from './config-fields.js';
import { pointer, ruleLabel, type TableProblem } from './table-problem.js';

/** The format version this router reads; a new format gets a new number so an old router refuses it. */
export const ROUTING_TABLE_VERSION = 1;

const TABLE_FIELDS = ['version', 'agents', 'rules', 'default', 'fallback', 'discovery'] as const;
const RULE_FIELDS = ['id', 'match', 'target', 'fallback'] as const;

// A rule with one of these ids would make a decision's ruleId ambiguous.
const RESERVED_IDS: ReadonlySet<string> = new Set([RECIPIENT_RULE_ID, DEFAULT_RULE_ID, DISCOVERY_RULE_ID]);

// Fields whose values are a closed protocol enum, so a misspelt value is refused at start
// instead of silently never matching.
const CLOSED_VALUES: { readonly [F in MatchField]?: readonly string[] } = {
  handoff_type: HANDOFF_TYPES,
  priority: PRIORITIES,
};

export type CompileResult = { ok: true; table: RoutingTable } | { ok: false; problems: TableProblem[] };

/** What checking one rule needs to know about the table and the rules before it. */
interface RulesState {
  readonly agents: ReadonlySet<string> | undefined;
  /** Rule id to the index of the rule that first used it. */
  readonly ids: Map<string, number>;
  /** Every earlier rule whose match is valid, to find rules they make unreachable. */
  readonly earlier: { label: string; match: RuleMatch }[];
}

/**
 * Checks a parsed table completely, collecting every problem rather than stopping at the first,
 * and compiles it into its frozen routing form when there are none.
 */
export function compileRoutingTable(value: unknown): CompileResult {
  if (!isMapping(value)) {
    return { ok: false, problems: [{ path: '', message: `the table must be a mapping of ${list(TABLE_FIELDS)}` }] };
  }
  const problems: TableProblem[] = [];
  checkFields(value, TABLE_FIELDS, [], 'the table', problems);
  if (value.version !== ROUTING_TABLE_VERSION) {
    problems.push({ path: '/version', message: `version must be ${ROUTING_TABLE_VERSION}` });
  }
  const agents = readAgents(value.agents, problems);
  const state: RulesState = { agents, ids: new Map(), earlier: [] };
  const rules = readRules(value.rules, state, problems);
  const defaultTarget = readDefault(value, state, problems);
  const fallback = Object.hasOwn(value, 'fallback')
    ? readFallback(value.fallback, ['fallback'], 'the table', undefined, state, problems)
    : undefined;
  const discovery = readDiscovery(value, problems);
  if (problems.length > 0 || agents === undefined) return { ok: false, problems };
  return {
    ok: true,
    table: Object.freeze({ agents, rules: Object.freeze(rules), defaultTarget, fallback, discovery }),
  };
}

function readDiscovery(table: Record<string, unknown>, problems: TableProblem[]): boolean {
  if (!Object.hasOwn(table, 'discovery')) return false;
  if (typeof table.discovery !== 'boolean') {
    problems.push({ path: '/discovery', message: 'discovery must be true or false' });
    return false;
  }
  return table.discovery;
}

/** A rule's or the table's fallback: one of `agents`, and not the agent it stands in for. */
function readFallback(
  value: unknown,
  path: Path,
  owner: string,
  target: string | undefined,
  state: RulesState,
  problems: TableProblem[],
): string | undefined {
  const at = pointer(...path);
  if (!isName(value)) {
    problems.push({ path: at, message: `${owner}: fallback must be an agent id` });
    return undefined;
  }
  if (state.agents !== undefined && !state.agents.has(value)) {
    problems.push({ path: at, message: `${owner}: fallback "${value}" is not one of agents` });
  } else if (value === target) {
    problems.push({ path: at, message: `${owner}: fallback "${value}" is its own target` });
  }
  return value;
}

function readAgents(value: unknown, problems: TableProblem[]): ReadonlySet<string> | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    problems.push({ path: '/agents', message: 'agents must be a non-empty list of agent ids' });
    return undefined;
  }
  const agents = new Set<string>();
  value.forEach((agent: unknown, index) => {
    const path = pointer('agents', index);
    if (!isName(agent)) problems.push({ path, message: 'an agent id must be a non-empty string' });
    else if (agents.has(agent)) problems.push({ path, message: `agent "${agent}" is listed twice` });
    else agents.add(agent);
  });
  return agents;
}

function readRules(value: unknown, state: RulesState, problems: TableProblem[]): RoutingRule[] {
  if (!Array.isArray(value)) {
    problems.push({ path: '/rules', message: 'rules must be a list ([] when the default routes everything)' });
    return [];
  }
  const rules: RoutingRule[] = [];
  value.forEach((entry: unknown, index) => {
    const rule = readRule(entry, index, state, problems);
    if (rule !== undefined) rules.push(rule);
  });
  return rules;
}

/** The rule at `index`, or undefined when it has problems (all of which are recorded). */
function readRule(entry: unknown, index: number, state: RulesState, problems: TableProblem[]): RoutingRule | undefined {
  const path: Path = ['rules', index];
  if (!isMapping(entry)) {
    problems.push({ path: pointer(...path), message: `rule ${index} must be a mapping of ${list(RULE_FIELDS)}` });
    return undefined;
  }
  const before = problems.length;
  const label = ruleLabel(index, entry.id);
  checkFields(entry, RULE_FIELDS, path, label, problems);
  const id = readId(entry.id, index, label, state, problems);
  const match = readMatch(entry.match, path, label, problems);
  const target = readTarget(entry.target, path, label, state, problems);
  const fallback = Object.hasOwn(entry, 'fallback')
    ? readFallback(entry.fallback, [...path, 'fallback'], label, target, state, problems)
    : undefined;
  if (match !== undefined) {
    const cover = state.earlier.find((earlier) => subsumes(earlier.match, match));
    if (cover !== undefined) {
      problems.push({
        path: pointer(...path),
        message: `${label} is unreachable: ${cover.label} matches every message it matches`,
      });
    }
    state.earlier.push({ label, match });
  }
  if (problems.length > before || id === undefined || match === undefined || target === undefined) return undefined;
  return Object.freeze({ id, index, match, target, fallback });
}

function readId(
  value: unknown,
  index: number,
  label: string,
  state: RulesState,
  problems: TableProblem[],
): string | undefined {
  const path = pointer('rules', index, 'id');
  if (!isName(value)) {
    problems.push({ path, message: `${label} needs an id, a non-empty string` });
    return undefined;
  }
  const first = state.ids.get(value);
  if (RESERVED_IDS.has(value)) {
    problems.push({ path, message: `${label}: the id "${value}" is reserved for decisions no rule takes` });
  } else if (first !== undefined) {
    problems.push({ path, message: `${label} repeats the id of rule ${first}` });
  } else {
    state.ids.set(value, index);
  }
  return value;
}

function readMatch(value: unknown, rulePath: Path, label: string, problems: TableProblem[]): RuleMatch | undefined {
  const path = [...rulePath, 'match'];
  if (!isMapping(value)) {
    problems.push({
      path: pointer(...path),
      message: `${label}: match must be a mapping of ${list(MATCH_FIELDS)} ({} matches every message)`,
    });
    return undefined;
  }
  const before = problems.length;
  checkFields(value, MATCH_FIELDS, path, `${label}: match`, problems);
  const match: { [F in MatchField]?: ReadonlySet<string> } = {};
  for (const field of MATCH_FIELDS) {
    if (!Object.hasOwn(value, field)) continue;
    const values = readValues(value[field], [...path, field], `${label}: ${field}`, CLOSED_VALUES[field], problems);
    if (values !== undefined) match[field] = values;
  }
  return problems.length > before ? undefined : Object.freeze(match);
}

/** A match field's accepted values: one string as shorthand, or a non-empty list of strings. */
function readValues(
  value: unknown,
  path: Path,
  owner: string,
  allowed: readonly string[] | undefined,
  problems: TableProblem[],
): ReadonlySet<string> | undefined {
  const shorthand = typeof value === 'string';
  const items: unknown[] | undefined = shorthand ? [value] : Array.isArray(value) ? value : undefined;
  if (items === undefined) {
    problems.push({ path: pointer(...path), message: `${owner} must be a value or a non-empty list of values` });
    return undefined;
  }
  if (items.length === 0) {
    problems.push({
      path: pointer(...path),
      message: `${owner} is an empty list, which matches nothing; omit the field to match any value`,
    });
    return undefined;
  }
  const before = problems.length;
  const values = new Set<string>();
  items.forEach((item, index) => {
    const at = shorthand ? pointer(...path) : pointer(...path, index);
    if (!isName(item)) problems.push({ path: at, message: `${owner} values must be non-empty strings` });
    else if (allowed !== undefined && !allowed.includes(item)) {
      problems.push({ path: at, message: `${owner} "${item}" is not one of ${list(allowed)}` });
    } else values.add(item);
  });
  return problems.length > before ? undefined : values;
}

function readTarget(
  value: unknown,
  rulePath: Path,
  label: string,
  state: RulesState,
  problems: TableProblem[],
): string | undefined {
  const path = pointer(...rulePath, 'target');
  if (!isName(value)) {
    problems.push({ path, message: `${label}: target must be an agent id` });
    return undefined;
  }
  if (state.agents !== undefined && !state.agents.has(value)) {
    problems.push({ path, message: `${label}: target "${value}" is not one of agents` });
  }
  return value;
}

function readDefault(table: Record<string, unknown>, state: RulesState, problems: TableProblem[]): string | undefined {
  if (!Object.hasOwn(table, 'default')) return undefined;
  const value = table.default;
  if (!isName(value)) {
    problems.push({
      path: '/default',
      message: 'default must be an agent id; omit it to leave unmatched messages unrouted',
    });
    return undefined;
  }
  if (state.agents !== undefined && !state.agents.has(value)) {
    problems.push({ path: '/default', message: `default "${value}" is not one of agents` });
  }
  const catchAll = state.earlier.find((rule) => Object.keys(rule.match).length === 0);
  if (catchAll !== undefined) {
    problems.push({
      path: '/default',
      message: `default "${value}" is never used: ${catchAll.label} matches every message`,
    });
  }
  return value;
}
