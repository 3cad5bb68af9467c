import { describe, expect, it } from 'vitest';
import { integerOption, parseCommandLine, positiveNumberOption, resolveConnection } from './args.js';
import { EXIT, type CliError } from './errors.js';

function usage(argv: string[]): CliError {
  try {
    parseCommandLine(argv);
  } catch (error) {
    return error as CliError;
  }
  throw new Error(`${argv.join(' ')} parsed`);
}

describe('parseCommandLine', () => {
  it('finds one-word and dlq commands, their operands and options, with global options anywhere', () => {
    expect(parseCommandLine(['--json', 'task', 'task-1', '--gateway', 'http://gw:1'])).toEqual({
      command: 'task',
      operands: ['task-1'],
      options: {},
      global: { gateway: 'http://gw:1', json: true, help: false },
    });
    const parsed = parseCommandLine([
      'dlq',
      'messages',
      'baton.x.dlq',
      '--header',
      'a=1',
      '--header=b=2',
      '--limit',
      '5',
      '--token',
      't',
    ]);
    expect(parsed).toMatchObject({
      command: 'dlq messages',
      operands: ['baton.x.dlq'],
      options: { header: ['a=1', 'b=2'], limit: '5' },
      global: { token: 't', json: false },
    });
  });

  it('takes - as an operand (standard input) and an absent one', () => {
    expect(parseCommandLine(['publish', '-']).operands).toEqual(['-']);
    expect(parseCommandLine(['publish']).operands).toEqual([]);
  });

  it('takes negotiate with its file, its two options and --json, in any order', () => {
    expect(
      parseCommandLine(['negotiate', '--reason', 'needs tier 3', 'h.json', '--desired-agent-type=network', '--json']),
    ).toEqual({
      command: 'negotiate',
      operands: ['h.json'],
      options: { reason: 'needs tier 3', 'desired-agent-type': 'network' },
      global: { json: true, help: false },
    });
    expect(parseCommandLine(['negotiate']).operands).toEqual([]);
    expect(usage(['negotiate', 'a.json', 'b.json']).message).toContain('not "b.json"');
    expect(usage(['negotiate', '--rate', '1']).message).toContain("'--rate'");
  });

  it('is help for no command, help words, or --help anywhere', () => {
    expect(parseCommandLine([]).command).toBe('help');
    expect(parseCommandLine(['help', 'dlq', 'replay'])).toMatchObject({ command: 'help', operands: ['dlq', 'replay'] });
    expect(parseCommandLine(['dlq', '--help'])).toMatchObject({ command: 'help', operands: ['dlq'] });
    expect(parseCommandLine(['tail', 'x', '-h'])).toMatchObject({ command: 'help', operands: ['tail', 'x'] });
  });

  it('refuses unknown commands, options and wrong operand counts as usage errors (exit 1)', () => {
    expect(usage(['frobnicate'])).toMatchObject({ code: 'USAGE', exitCode: EXIT.USAGE });
    expect(usage(['dlq']).message).toContain('subcommand');
    expect(usage(['dlq', 'purge']).message).toContain('unknown dlq subcommand "purge"');
    expect(usage(['agents', '--from-beginning']).message).toContain("'--from-beginning'");
    expect(usage(['task']).message).toContain('takes TASK_ID');
    expect(usage(['task', 'a', 'b']).message).toContain('not "b"');
    expect(usage(['dlq', 'show', 'topic']).message).toContain('TOPIC ID');
    expect(usage(['dlq', 'replay', 'topic', '--reason']).message).toContain('--reason');
  });
});

describe('option values', () => {
  it('checks whole numbers and positive numbers', () => {
    expect(integerOption({ max: '3' }, 'max', 1)).toBe(3);
    expect(integerOption({}, 'max', 1)).toBeUndefined();
    for (const bad of ['0', '-1', '1.5', 'x', '501']) {
      expect(() => integerOption({ limit: bad }, 'limit', 1, 500)).toThrow(/--limit must be a whole number/);
    }
    expect(positiveNumberOption({ rate: '0.5' }, 'rate')).toBe(0.5);
    expect(() => positiveNumberOption({ rate: '0' }, 'rate')).toThrow(/positive/);
    expect(() => positiveNumberOption({ rate: '' }, 'rate')).toThrow(/positive/);
  });

  it('takes the gateway and token from options, then the environment, then the default', () => {
    expect(resolveConnection({ json: false, help: false }, {})).toEqual({
      gatewayUrl: 'http://127.0.0.1:8080',
      token: undefined,
    });
    expect(
      resolveConnection({ json: false, help: false }, { BATON_GATEWAY_URL: 'http://env:1', BATON_TOKEN: 'env-t' }),
    ).toEqual({ gatewayUrl: 'http://env:1', token: 'env-t' });
    expect(
      resolveConnection(
        { gateway: 'http://opt:2', token: 'opt-t', json: false, help: false },
        { BATON_GATEWAY_URL: 'http://env:1', BATON_TOKEN: 'env-t' },
      ),
    ).toEqual({ gatewayUrl: 'http://opt:2', token: 'opt-t' });
  });
});
