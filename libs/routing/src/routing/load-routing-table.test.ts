import { hasErrorCode, type BatonError } from '@baton/errors';
import { describe, expect, it } from 'vitest';
import { loadRoutingTable, parseRoutingTable } from './load-routing-table.js';
import type { TableProblem } from './table-problem.js';

const AGENTS = ['triage', 'sales', 'tech'];

/** A table as YAML text; JSON is YAML, so tests state tables as objects. */
function yaml(table: Record<string, unknown>): string {
  return JSON.stringify({ version: 1, agents: AGENTS, ...table });
}

function refusal(text: string): BatonError {
  try {
    parseRoutingTable(text, 'test.yaml');
  } catch (error) {
    if (hasErrorCode(error, 'CONFIG_INVALID')) return error;
    throw error;
  }
  throw new Error('the table loaded');
}

function problems(text: string): TableProblem[] {
  return refusal(text).details?.problems as TableProblem[];
}

const rule = (id: string, match: Record<string, unknown>, target = 'triage') => ({ id, match, target });

describe('parseRoutingTable', () => {
  it('compiles a table into frozen rules with value sets', () => {
    const table = parseRoutingTable(`
version: 1
agents: [triage, sales]
rules:
  - id: sales
    match: { handoff_type: TASK_TRANSFER, issue_category: [SALES, PRICING] }
    target: sales
default: triage
`);
    expect(table).toEqual({
      agents: new Set(['triage', 'sales']),
      rules: [
        {
          id: 'sales',
          index: 0,
          match: { handoff_type: new Set(['TASK_TRANSFER']), issue_category: new Set(['SALES', 'PRICING']) },
          target: 'sales',
        },
      ],
      defaultTarget: 'triage',
      fallback: undefined,
      discovery: false,
    });
    expect(Object.isFrozen(table) && Object.isFrozen(table.rules) && Object.isFrozen(table.rules[0])).toBe(true);
  });

  it('reads fallbacks and discovery', () => {
    const table = parseRoutingTable(
      yaml({
        rules: [{ ...rule('sales', { issue_category: 'SALES' }, 'sales'), fallback: 'triage' }],
        fallback: 'tech',
        discovery: true,
      }),
    );
    expect(table.rules[0]?.fallback).toBe('triage');
    expect(table).toMatchObject({ fallback: 'tech', discovery: true });
  });

  it('accepts a table without rules or default', () => {
    expect(parseRoutingTable(yaml({ rules: [] }))).toEqual({
      agents: new Set(AGENTS),
      rules: [],
      defaultTarget: undefined,
      fallback: undefined,
      discovery: false,
    });
  });

  it('refuses with every problem, its message and path naming the first', () => {
    const error = refusal(
      yaml({
        rules: [rule('a', {}, 'sales'), rule('b', { handoff_type: 'ESCALATION' }, 'nobody')],
        default: 'nobody',
      }),
    );
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toBe(
      'invalid routing table test.yaml: /rules/1/target: rule 1 ("b"): target "nobody" is not one of agents (and 3 more)',
    );
    expect(error.path).toBe('/rules/1/target');
    expect(error.details).toEqual({
      source: 'test.yaml',
      problems: [
        { path: '/rules/1/target', message: 'rule 1 ("b"): target "nobody" is not one of agents' },
        { path: '/rules/1', message: 'rule 1 ("b") is unreachable: rule 0 ("a") matches every message it matches' },
        { path: '/default', message: 'default "nobody" is not one of agents' },
        { path: '/default', message: 'default "nobody" is never used: rule 0 ("a") matches every message' },
      ],
    });
  });
});

describe('parseRoutingTable refuses YAML that is not a table', () => {
  it.each([
    ['a list', '- triage\n- sales\n'],
    ['an empty file', ''],
  ])('%s', (_name, text) => {
    const error = refusal(text);
    expect(error.message).toBe(
      'invalid routing table test.yaml: the table must be a mapping of version, agents, rules, default, fallback and discovery',
    );
    expect(error.path).toBe('');
  });

  it.each([
    ['a repeated key', 'version: 1\nversion: 1\n', 'Map keys must be unique at line 2, column 1'],
    [
      'an unclosed list',
      'agents: [triage\nversion: 1\n',
      'Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1',
    ],
    ['an unknown tag', 'version: !!int2 1\n', 'Unresolved tag: tag:yaml.org,2002:int2 at line 1, column 10'],
    ['an undefined alias', 'agents: *all\n', 'Unresolved alias (the anchor must be set before the alias): all'],
  ])('%s', (_name, text, reason) => {
    expect(problems(text)).toEqual([{ path: '', message: `not valid YAML: ${reason}` }]);
  });
});

describe('parseRoutingTable checks the table', () => {
  it.each<[string, Record<string, unknown>, TableProblem[]]>([
    [
      'unknown fields',
      { rules: [], routes: [], 'a/b~c': 1 },
      [
        {
          path: '/routes',
          message:
            'the table has unknown field "routes"; it accepts version, agents, rules, default, fallback and discovery',
        },
        {
          path: '/a~1b~0c',
          message:
            'the table has unknown field "a/b~c"; it accepts version, agents, rules, default, fallback and discovery',
        },
      ],
    ],
    ['another version', { version: 2, rules: [] }, [{ path: '/version', message: 'version must be 1' }]],
    ['no version', { version: undefined, rules: [] }, [{ path: '/version', message: 'version must be 1' }]],
    [
      'no agents',
      { agents: [], rules: [rule('a', {}, 'x')] },
      [{ path: '/agents', message: 'agents must be a non-empty list of agent ids' }],
    ],
    [
      'bad and repeated agents',
      { agents: ['triage', '', 'triage', 7], rules: [] },
      [
        { path: '/agents/1', message: 'an agent id must be a non-empty string' },
        { path: '/agents/2', message: 'agent "triage" is listed twice' },
        { path: '/agents/3', message: 'an agent id must be a non-empty string' },
      ],
    ],
    [
      'rules that are not a list',
      { rules: { a: 1 } },
      [{ path: '/rules', message: 'rules must be a list ([] when the default routes everything)' }],
    ],
    [
      'a rule that is not a mapping',
      { rules: ['triage'] },
      [{ path: '/rules/0', message: 'rule 0 must be a mapping of id, match, target and fallback' }],
    ],
    [
      'an unknown rule field',
      { rules: [{ id: 'a', match: {}, targets: ['sales'] }] },
      [
        {
          path: '/rules/0/targets',
          message: 'rule 0 ("a") has unknown field "targets"; it accepts id, match, target and fallback',
        },
        { path: '/rules/0/target', message: 'rule 0 ("a"): target must be an agent id' },
      ],
    ],
    [
      'a rule without id',
      { rules: [{ match: {}, target: 'sales' }] },
      [{ path: '/rules/0/id', message: 'rule 0 needs an id, a non-empty string' }],
    ],
    [
      'a repeated rule id',
      { rules: [rule('a', { priority: 'LOW' }), rule('b', { priority: 'HIGH' }), rule('a', { priority: 'MEDIUM' })] },
      [{ path: '/rules/2/id', message: 'rule 2 ("a") repeats the id of rule 0' }],
    ],
    [
      'a reserved rule id',
      { rules: [rule('recipient', { priority: 'LOW' }), rule('default', { priority: 'HIGH' })] },
      [
        {
          path: '/rules/0/id',
          message: 'rule 0 ("recipient"): the id "recipient" is reserved for decisions no rule takes',
        },
        {
          path: '/rules/1/id',
          message: 'rule 1 ("default"): the id "default" is reserved for decisions no rule takes',
        },
      ],
    ],
    [
      'a rule without match',
      { rules: [{ id: 'a', target: 'sales' }] },
      [
        {
          path: '/rules/0/match',
          message:
            'rule 0 ("a"): match must be a mapping of handoff_type, issue_category, priority and recipient_id ({} matches every message)',
        },
      ],
    ],
    [
      'an unknown match field',
      { rules: [rule('a', { category: 'SALES' })] },
      [
        {
          path: '/rules/0/match/category',
          message:
            'rule 0 ("a"): match has unknown field "category"; it accepts handoff_type, issue_category, priority and recipient_id',
        },
      ],
    ],
    [
      'an unknown handoff_type, as shorthand and in a list',
      { rules: [rule('a', { handoff_type: 'REFUND' }), rule('b', { handoff_type: ['ESCALATION', 'escalation'] })] },
      [
        {
          path: '/rules/0/match/handoff_type',
          message:
            'rule 0 ("a"): handoff_type "REFUND" is not one of TASK_TRANSFER, REQUEST_INFORMATION, PROVIDE_INFORMATION, ESCALATION, NOTIFICATION, STATUS_UPDATE and APPROVAL_REQUEST',
        },
        {
          path: '/rules/1/match/handoff_type/1',
          message:
            'rule 1 ("b"): handoff_type "escalation" is not one of TASK_TRANSFER, REQUEST_INFORMATION, PROVIDE_INFORMATION, ESCALATION, NOTIFICATION, STATUS_UPDATE and APPROVAL_REQUEST',
        },
      ],
    ],
    [
      'an unknown priority',
      { rules: [rule('a', { priority: ['URGENT'] })] },
      [
        {
          path: '/rules/0/match/priority/0',
          message: 'rule 0 ("a"): priority "URGENT" is not one of LOW, MEDIUM, HIGH and CRITICAL',
        },
      ],
    ],
    [
      'match values of the wrong kind',
      { rules: [rule('a', { issue_category: [404, ''], recipient_id: null, priority: [] })] },
      [
        {
          path: '/rules/0/match/issue_category/0',
          message: 'rule 0 ("a"): issue_category values must be non-empty strings',
        },
        {
          path: '/rules/0/match/issue_category/1',
          message: 'rule 0 ("a"): issue_category values must be non-empty strings',
        },
        {
          path: '/rules/0/match/priority',
          message: 'rule 0 ("a"): priority is an empty list, which matches nothing; omit the field to match any value',
        },
        {
          path: '/rules/0/match/recipient_id',
          message: 'rule 0 ("a"): recipient_id must be a value or a non-empty list of values',
        },
      ],
    ],
    [
      'an unknown target',
      { rules: [rule('a', {}, 'billing')] },
      [{ path: '/rules/0/target', message: 'rule 0 ("a"): target "billing" is not one of agents' }],
    ],
    [
      'an unknown default',
      { rules: [], default: 'billing' },
      [{ path: '/default', message: 'default "billing" is not one of agents' }],
    ],
    [
      'a default that is not a name',
      { rules: [], default: ['triage'] },
      [{ path: '/default', message: 'default must be an agent id; omit it to leave unmatched messages unrouted' }],
    ],
    [
      'fallbacks that are unknown, not names, or the rule’s own target',
      {
        rules: [
          { ...rule('a', { priority: 'LOW' }, 'sales'), fallback: 'billing' },
          { ...rule('b', { priority: 'HIGH' }, 'sales'), fallback: 'sales' },
          { ...rule('c', { priority: 'CRITICAL' }, 'sales'), fallback: 7 },
        ],
        fallback: 'nobody',
      },
      [
        { path: '/rules/0/fallback', message: 'rule 0 ("a"): fallback "billing" is not one of agents' },
        { path: '/rules/1/fallback', message: 'rule 1 ("b"): fallback "sales" is its own target' },
        { path: '/rules/2/fallback', message: 'rule 2 ("c"): fallback must be an agent id' },
        { path: '/fallback', message: 'the table: fallback "nobody" is not one of agents' },
      ],
    ],
    [
      'discovery that is not a boolean',
      { rules: [], discovery: 'yes' },
      [{ path: '/discovery', message: 'discovery must be true or false' }],
    ],
  ])('%s', (_name, table, expected) => {
    expect(problems(yaml(table))).toEqual(expected);
  });
});

describe('parseRoutingTable refuses unreachable rules', () => {
  it('after a catch-all rule', () => {
    const table = {
      rules: [rule('all', {}), rule('a', { priority: 'LOW' }), rule('b', { handoff_type: 'ESCALATION' })],
    };
    expect(problems(yaml(table))).toEqual([
      { path: '/rules/1', message: 'rule 1 ("a") is unreachable: rule 0 ("all") matches every message it matches' },
      { path: '/rules/2', message: 'rule 2 ("b") is unreachable: rule 0 ("all") matches every message it matches' },
    ]);
  });

  it('whose every field accepts a subset of what an earlier rule accepts', () => {
    const table = {
      rules: [
        rule('low', { priority: 'LOW' }),
        rule('wide', { handoff_type: ['ESCALATION', 'TASK_TRANSFER'], issue_category: ['SALES', 'REFUND'] }),
        rule('narrow', { handoff_type: 'ESCALATION', issue_category: 'SALES', recipient_id: 'desk' }),
      ],
    };
    expect(problems(yaml(table))).toEqual([
      {
        path: '/rules/2',
        message: 'rule 2 ("narrow") is unreachable: rule 1 ("wide") matches every message it matches',
      },
    ]);
  });

  it('but not one that accepts a value or a field value the earlier rule does not', () => {
    const table = {
      rules: [
        rule('sales', { handoff_type: 'ESCALATION', issue_category: 'SALES' }),
        rule('more-categories', { handoff_type: 'ESCALATION', issue_category: ['SALES', 'REFUND'] }),
        rule('any-category', { handoff_type: 'ESCALATION' }),
      ],
    };
    expect(parseRoutingTable(yaml(table)).rules.map((loaded) => loaded.id)).toEqual([
      'sales',
      'more-categories',
      'any-category',
    ]);
  });
});

describe('loadRoutingTable', () => {
  it('refuses a file it cannot read', async () => {
    const path = '/nonexistent/routing-table.yaml';
    const error = await loadRoutingTable(path).catch((caught: unknown) => caught);
    expect(hasErrorCode(error, 'CONFIG_INVALID')).toBe(true);
    expect((error as BatonError).message).toMatch(
      /^cannot read routing table \/nonexistent\/routing-table\.yaml: ENOENT/,
    );
  });
});
