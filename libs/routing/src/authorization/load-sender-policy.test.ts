import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HANDOFF_TYPES } from '@baton/protocol';
import { hasErrorCode, type BatonError } from '@baton/errors';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parseRoutingTable } from '../routing/load-routing-table.js';
import type { TableProblem } from '../routing/table-problem.js';
import { loadSenderPolicy, parseSenderPolicy } from './load-sender-policy.js';

const TABLE = parseRoutingTable(
  JSON.stringify({ version: 1, agents: ['triage', 'sales', 'tech', 'human'], rules: [] }),
);

/** A policy as YAML text; JSON is YAML, so tests state policies as objects. */
function yaml(policy: Record<string, unknown>): string {
  return JSON.stringify({ version: 1, ...policy });
}

const rule = (id: string, senders: unknown, handoff_types: unknown, recipients: unknown) => ({
  id,
  senders,
  handoff_types,
  recipients,
});

function refusal(text: string): BatonError {
  try {
    parseSenderPolicy(text, TABLE, 'policy.yaml');
  } catch (error) {
    if (hasErrorCode(error, 'CONFIG_INVALID')) return error;
    throw error;
  }
  throw new Error('the policy loaded');
}

function problems(text: string): TableProblem[] {
  return refusal(text).details?.problems as TableProblem[];
}

describe('parseSenderPolicy', () => {
  it('compiles rules with pools expanded and "*" handoff_types and recipients spelt out, frozen', () => {
    const policy = parseSenderPolicy(
      `
version: 1
external_senders: [portal]
pools:
  frontline: [triage, portal]
rules:
  - id: frontline-escalates
    senders: [frontline, sales]
    handoff_types: [ESCALATION, TASK_TRANSFER]
    recipients: [tech, human]
  - id: human-answers
    senders: human
    handoff_types: PROVIDE_INFORMATION
    recipients: '*'
  - id: anyone-notifies-human
    senders: '*'
    handoff_types: NOTIFICATION
    recipients: [human]
  - id: tech-does-anything-for-sales
    senders: [tech]
    handoff_types: '*'
    recipients: [sales]
`,
      TABLE,
    );
    expect(policy.rules).toEqual([
      {
        id: 'frontline-escalates',
        index: 0,
        senders: new Set(['triage', 'portal', 'sales']),
        handoffTypes: new Set(['ESCALATION', 'TASK_TRANSFER']),
        recipients: new Set(['tech', 'human']),
      },
      {
        id: 'human-answers',
        index: 1,
        senders: new Set(['human']),
        handoffTypes: new Set(['PROVIDE_INFORMATION']),
        recipients: new Set(['triage', 'sales', 'tech', 'human']),
      },
      {
        id: 'anyone-notifies-human',
        index: 2,
        senders: '*',
        handoffTypes: new Set(['NOTIFICATION']),
        recipients: new Set(['human']),
      },
      {
        id: 'tech-does-anything-for-sales',
        index: 3,
        senders: new Set(['tech']),
        handoffTypes: new Set(HANDOFF_TYPES),
        recipients: new Set(['sales']),
      },
    ]);
    expect(Object.isFrozen(policy) && Object.isFrozen(policy.rules) && Object.isFrozen(policy.rules[0])).toBe(true);
  });

  it('refuses with every problem, its message naming the file and the first, its path the first', () => {
    const error = refusal(
      yaml({ rules: [rule('a', ['nobody'], ['TELEPORT'], ['tech']), rule('b', ['triage'], ['ESCALATION'], ['x'])] }),
    );
    expect(error.message).toBe(
      'invalid sender policy policy.yaml: /rules/0/senders/0: rule 0 ("a"): sender "nobody" is not an agent of the routing table, a pool or an external sender (and 2 more)',
    );
    expect(error.path).toBe('/rules/0/senders/0');
    expect(error.details).toEqual({
      source: 'policy.yaml',
      problems: [
        {
          path: '/rules/0/senders/0',
          message: 'rule 0 ("a"): sender "nobody" is not an agent of the routing table, a pool or an external sender',
        },
        {
          path: '/rules/0/handoff_types/0',
          message: `rule 0 ("a"): handoff_type "TELEPORT" is not one of ${HANDOFF_TYPES.slice(0, -1).join(', ')} and ${HANDOFF_TYPES.at(-1)}`,
        },
        {
          path: '/rules/1/recipients/0',
          message:
            'rule 1 ("b"): recipient "x" is not an agent of the routing table, so the router never sends it anything',
        },
      ],
    });
  });

  it('refuses a policy that is not a mapping, has no version 1, unknown fields or no rules', () => {
    expect(problems('[]')).toEqual([
      { path: '', message: 'the policy must be a mapping of version, pools, external_senders and rules' },
    ]);
    expect(problems(JSON.stringify({ version: 2, rules: [], routes: {} }))).toEqual([
      {
        path: '/routes',
        message: 'the policy has unknown field "routes"; it accepts version, pools, external_senders and rules',
      },
      { path: '/version', message: 'version must be 1' },
      { path: '/rules', message: 'rules must be a non-empty list: a policy without rules would refuse every handoff' },
    ]);
    expect(problems('version: 1\nrules: [\n')[0]?.message).toMatch(/^not valid YAML: /);
  });

  it('refuses rules with a missing or repeated id, an unknown field, or empty, malformed or doubled values', () => {
    expect(
      problems(
        yaml({
          rules: [
            { ...rule('a', 'triage', 'ESCALATION', 'tech'), match: {} },
            rule('a', 'sales', 'ESCALATION', 'tech'),
            { senders: 'tech', handoff_types: 'ESCALATION', recipients: 'human' },
            rule('d', [], ['ESCALATION', 'ESCALATION'], [3]),
            'everything',
          ],
        }),
      ),
    ).toEqual([
      {
        path: '/rules/0/match',
        message: 'rule 0 ("a") has unknown field "match"; it accepts id, senders, handoff_types and recipients',
      },
      { path: '/rules/1/id', message: 'rule 1 ("a") repeats the id of rule 0' },
      { path: '/rules/2/id', message: 'rule 2 needs an id, a non-empty string' },
      {
        path: '/rules/3/senders',
        message: 'rule 3 ("d"): senders must be "*", a value or a non-empty list of values',
      },
      { path: '/rules/3/handoff_types/1', message: 'rule 3 ("d"): handoff_types: "ESCALATION" is listed twice' },
      { path: '/rules/3/recipients/0', message: 'rule 3 ("d"): recipients values must be non-empty strings' },
      {
        path: '/rules/4',
        message: 'rule 4 must be a mapping of id, senders, handoff_types and recipients',
      },
    ]);
  });

  it('refuses "*" beside other values', () => {
    expect(problems(yaml({ rules: [rule('a', ['*', 'triage'], '*', ['tech', '*'])] }))).toEqual([
      {
        path: '/rules/0/senders',
        message: 'rule 0 ("a"): senders: "*" stands for every value; list nothing beside it',
      },
      {
        path: '/rules/0/recipients',
        message: 'rule 0 ("a"): recipients: "*" stands for every value; list nothing beside it',
      },
    ]);
  });

  it('refuses a recipient that is a pool or an external sender: the router only sends to agents of the table', () => {
    expect(
      problems(
        yaml({
          external_senders: ['portal'],
          pools: { desk: ['triage', 'sales'] },
          rules: [rule('a', 'tech', 'ESCALATION', ['desk', 'portal'])],
        }),
      ),
    ).toEqual([
      {
        path: '/rules/0/recipients/0',
        message:
          'rule 0 ("a"): recipient "desk" is not an agent of the routing table, so the router never sends it anything',
      },
      {
        path: '/rules/0/recipients/1',
        message:
          'rule 0 ("a"): recipient "portal" is not an agent of the routing table, so the router never sends it anything',
      },
    ]);
  });

  it('refuses pools that shadow an agent or an external sender, nest, name strangers or are empty', () => {
    expect(
      problems(
        yaml({
          external_senders: ['portal'],
          pools: {
            triage: ['sales'],
            portal: ['tech'],
            '*': ['tech'],
            nested: ['staff', 'stranger'],
            staff: ['sales', 'sales'],
            empty: [],
            anyone: '*',
          },
          rules: [rule('a', ['nested', 'staff', 'empty'], 'ESCALATION', 'human')],
        }),
      ),
    ).toEqual([
      {
        path: '/pools/triage',
        message: 'pool "triage" shadows the agent "triage": a rule naming it would mean either',
      },
      { path: '/pools/portal', message: 'pool "portal" shadows the external sender "portal"' },
      { path: '/pools/*', message: 'a pool cannot be named "*", which stands for any sender' },
      { path: '/pools/nested/0', message: 'pool "nested": "staff" is a pool; pools do not nest, list its members' },
      {
        path: '/pools/nested/1',
        message: 'pool "nested": "stranger" is neither an agent of the routing table nor an external sender',
      },
      { path: '/pools/staff/1', message: 'pool "staff": "sales" is listed twice' },
      { path: '/pools/empty', message: 'pool "empty" must be a non-empty list of values' },
      { path: '/pools/anyone', message: 'pool "anyone": "*" is not a sender; name the pool\'s members' },
    ]);
  });

  it('refuses external senders that are agents of the table, repeated or malformed', () => {
    expect(
      problems(yaml({ external_senders: ['portal', 'triage', 'portal', '*', ''], rules: [rule('a', '*', '*', '*')] })),
    ).toEqual([
      {
        path: '/external_senders/1',
        message: 'external sender "triage" is an agent of the routing table; name it as such',
      },
      { path: '/external_senders/2', message: 'external sender "portal" is listed twice' },
      { path: '/external_senders/3', message: 'an external sender must be a non-empty string other than "*"' },
      { path: '/external_senders/4', message: 'an external sender must be a non-empty string other than "*"' },
    ]);
    expect(problems(yaml({ external_senders: 'portal', rules: [rule('a', '*', '*', '*')] }))).toEqual([
      {
        path: '/external_senders',
        message: 'external_senders must be a list of sender ids that are not agents of the routing table',
      },
    ]);
  });

  it('refuses a rule another rule already covers, earlier or later, naming the one that covers it', () => {
    expect(
      problems(
        yaml({
          pools: { desk: ['triage', 'sales'] },
          rules: [
            rule('narrow', 'triage', 'ESCALATION', 'tech'),
            rule('desk', 'desk', ['ESCALATION', 'TASK_TRANSFER'], ['tech', 'human']),
            rule('same-again', ['sales', 'triage'], ['TASK_TRANSFER', 'ESCALATION'], ['human', 'tech']),
            rule('all-types', 'human', '*', 'tech'),
            rule('escalations-of-human', 'human', 'ESCALATION', '*'),
            rule('anyone', '*', 'NOTIFICATION', 'tech'),
            rule('tech-notifies', 'tech', 'NOTIFICATION', '*'),
          ],
        }),
      ),
    ).toEqual([
      {
        path: '/rules/0',
        message: 'rule 0 ("narrow") is unreachable: rule 1 ("desk") already allows everything it allows',
      },
      {
        path: '/rules/2',
        message: 'rule 2 ("same-again") is unreachable: rule 1 ("desk") already allows everything it allows',
      },
    ]);
    // "*" senders cover named ones, never the other way round; "*" recipients are the table's agents.
    expect(
      problems(
        yaml({
          rules: [
            rule('one', 'tech', 'NOTIFICATION', ['triage', 'sales', 'tech', 'human']),
            rule('all', '*', 'NOTIFICATION', '*'),
          ],
        }),
      ),
    ).toEqual([
      {
        path: '/rules/0',
        message: 'rule 0 ("one") is unreachable: rule 1 ("all") already allows everything it allows',
      },
    ]);
  });

  it('leaves rules naming a pool with problems unreported: the pool has been', () => {
    expect(problems(yaml({ pools: { desk: ['stranger'] }, rules: [rule('a', 'desk', 'ESCALATION', 'tech')] }))).toEqual(
      [
        {
          path: '/pools/desk/0',
          message: 'pool "desk": "stranger" is neither an agent of the routing table nor an external sender',
        },
      ],
    );
  });
});

describe('loadSenderPolicy', () => {
  it('reads a policy file, and refuses one it cannot read with CONFIG_INVALID naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-policy-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'policy.yaml');
    writeFileSync(file, yaml({ rules: [rule('a', 'triage', 'ESCALATION', 'tech')] }));
    expect((await loadSenderPolicy(file, TABLE)).rules.map((entry) => entry.id)).toEqual(['a']);
    const missing = join(dir, 'missing.yaml');
    await expect(loadSenderPolicy(missing, TABLE)).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(new RegExp(`^cannot read sender policy ${missing}: ENOENT`)),
    });
  });
});
