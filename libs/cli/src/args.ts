import { parseArgs, type ParseArgsConfig } from 'node:util';
import { usageError } from './errors.js';

type OptionSpec = NonNullable<ParseArgsConfig['options']>[string];
type OptionSpecs = Record<string, OptionSpec>;

export const COMMAND_NAMES = [
  'help',
  'publish',
  'negotiate',
  'tail',
  'task',
  'tasks',
  'agents',
  'overview',
  'dlq list',
  'dlq messages',
  'dlq show',
  'dlq replay',
  'acls',
  'mcp',
] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

export interface CommandSpec {
  name: CommandName;
  usage: string;
  summary: string;
  /** Options besides the global ones, with their help lines. */
  options: OptionSpecs;
  optionHelp: readonly (readonly [string, string])[];
  /** How many operands the command takes. */
  operands: { min: number; max: number; names: string };
}

export const GLOBAL_OPTIONS = {
  gateway: { type: 'string' },
  token: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies OptionSpecs;

export const GLOBAL_OPTION_HELP = [
  [
    '--gateway URL',
    'the gateway (default $BATON_GATEWAY_URL, else the one npm start wrote down, else http://127.0.0.1:8080)',
  ],
  ['--token T', 'the API token (default $BATON_TOKEN); never printed'],
  ['--json', 'print the raw JSON answer (tail: one JSON object per record)'],
  ['-h, --help', 'show help'],
] as const;

const FILTER_OPTIONS = {
  'error-code': { type: 'string' },
  'task-id': { type: 'string' },
  'handoff-type': { type: 'string' },
  header: { type: 'string', multiple: true },
  from: { type: 'string' },
  to: { type: 'string' },
} as const satisfies OptionSpecs;

const FILTER_HELP = [
  ['--error-code C', 'dead-letter error code, e.g. RETRIES_EXHAUSTED'],
  ['--task-id T', 'the record key'],
  ['--handoff-type H', 'the ce_type header, e.g. STATUS_UPDATE'],
  ['--header name=value', 'a header value (repeatable; all must match)'],
  ['--from ISO', 'dead-lettered at or after'],
  ['--to ISO', 'dead-lettered before'],
] as const;

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: 'publish',
    usage: 'baton publish [FILE|-]',
    summary: 'validate a handoff JSON locally, then publish it through the gateway (stdin when no FILE or -)',
    options: {},
    optionHelp: [],
    operands: { min: 0, max: 1, names: 'FILE' },
  },
  {
    name: 'negotiate',
    usage: 'baton negotiate [FILE|-] --desired-agent-type TYPE --reason TEXT',
    summary: 'validate a handoff JSON locally, then ask its one recipient to take it over (a negotiated handoff)',
    options: { 'desired-agent-type': { type: 'string' }, reason: { type: 'string' } },
    optionHelp: [
      [
        '--desired-agent-type TYPE',
        "the kind of agent wanted, matched against the recipient's id, name, domain, skills",
      ],
      ['--reason TEXT', 'why the task is handed over'],
    ],
    operands: { min: 0, max: 1, names: 'FILE' },
  },
  {
    name: 'tail',
    usage: 'baton tail TOPIC [--from-beginning] [--max N] [--brokers B] [--registry URL]',
    summary: "print a topic's records decoded, straight from Kafka",
    options: {
      'from-beginning': { type: 'boolean' },
      max: { type: 'string' },
      brokers: { type: 'string' },
      registry: { type: 'string' },
    },
    optionHelp: [
      ['--from-beginning', 'read the records already there too (default: only new ones)'],
      ['--max N', 'exit after N records'],
      ['--brokers B', 'comma-separated host:port (default $KAFKA_BROKERS, else those npm start wrote down)'],
      ['--registry URL', 'the schema registry (default $SCHEMA_REGISTRY_URL, else the one npm start wrote down)'],
    ],
    operands: { min: 1, max: 1, names: 'TOPIC' },
  },
  {
    name: 'task',
    usage: 'baton task TASK_ID [--follow [--max N]]',
    summary: "a task's status, timeline across agents and negotiated handoffs; or its steps and replies as they happen",
    options: { follow: { type: 'boolean' }, max: { type: 'string' } },
    optionHelp: [
      ['--follow', 'print each step and reply to the user as it happens, the known ones first, until Ctrl-C'],
      ['--max N', 'with --follow: exit after N events'],
    ],
    operands: { min: 1, max: 1, names: 'TASK_ID' },
  },
  {
    name: 'tasks',
    usage: 'baton tasks [--status S[,S...]] [filters] [--limit N] [--cursor C]',
    summary:
      'tasks newest first, with status, owner, handoff types, age and last outcome; filtered as the console does',
    options: {
      status: { type: 'string' },
      agent: { type: 'string' },
      'handoff-type': { type: 'string' },
      'issue-category': { type: 'string' },
      'error-code': { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      search: { type: 'string' },
      'correlation-id': { type: 'string' },
      'stuck-after': { type: 'string' },
      limit: { type: 'string' },
      cursor: { type: 'string' },
    },
    optionHelp: [
      [
        '--status S[,S...]',
        'CREATE, EXECUTING, WAITING, BREAK, FINISH, FAILED, EXPIRED or STUCK (executing past its deadline or silent)',
      ],
      ['--agent ID', 'an agent that sent, received, held or reported on the task'],
      ['--handoff-type T', 'a handoff_type of the task, e.g. ESCALATION'],
      ['--issue-category C', 'an issue_category of the task, e.g. BILLING'],
      ['--error-code CODE', 'an error code of its outcomes or notifications, e.g. RETRIES_EXHAUSTED'],
      ['--from ISO', 'tasks with an event at or after this instant'],
      ['--to ISO', 'tasks created at or before this instant'],
      ['--search TEXT', "a part of the task's id, a parent's, a correlation_id or a message_id"],
      ['--correlation-id ID', 'the tasks of one flow'],
      [
        '--stuck-after S',
        'seconds without an event after which an executing task is stuck (the gateway decides otherwise)',
      ],
      ['--limit N', 'tasks per page, 1-500 (default 50)'],
      ['--cursor C', 'the next page, as the previous page names it'],
    ],
    operands: { min: 0, max: 0, names: '' },
  },
  {
    name: 'agents',
    usage: 'baton agents',
    summary: 'the agents and the router: up or down, and their instances',
    options: {},
    optionHelp: [],
    operands: { min: 0, max: 0, names: '' },
  },
  {
    name: 'overview',
    usage: 'baton overview',
    summary:
      'the system at a glance: what needs attention, the agents, dead letters by code and topic, recent outcomes',
    options: {},
    optionHelp: [],
    operands: { min: 0, max: 0, names: '' },
  },
  {
    name: 'dlq list',
    usage: 'baton dlq list',
    summary: 'the dead-letter topics with their counts',
    options: {},
    optionHelp: [],
    operands: { min: 0, max: 0, names: '' },
  },
  {
    name: 'dlq messages',
    usage: 'baton dlq messages TOPIC [filters] [--limit N] [--cursor C]',
    summary: "a dead-letter topic's records, newest first",
    options: { ...FILTER_OPTIONS, limit: { type: 'string' }, cursor: { type: 'string' } },
    optionHelp: [
      ...FILTER_HELP,
      ['--limit N', 'records per page, 1-500 (default 50)'],
      ['--cursor C', 'the next page, as the previous page names it'],
    ],
    operands: { min: 1, max: 1, names: 'TOPIC' },
  },
  {
    name: 'dlq show',
    usage: 'baton dlq show TOPIC ID',
    summary: 'one dead letter: error, headers, decoded body and replays',
    options: {},
    optionHelp: [],
    operands: { min: 2, max: 2, names: 'TOPIC ID' },
  },
  {
    name: 'dlq replay',
    usage:
      'baton dlq replay TOPIC ID --reason R [--target-topic T] [--new-message-id] [--override-trust]\n' +
      '  baton dlq replay TOPIC --all|filters --reason R [--rate N] [--dry-run] [--target-topic T] [--new-message-id]',
    summary: 'replay one dead letter, or plan and run a bulk replay following its progress',
    options: {
      ...FILTER_OPTIONS,
      reason: { type: 'string' },
      'target-topic': { type: 'string' },
      'new-message-id': { type: 'boolean' },
      'override-trust': { type: 'boolean' },
      all: { type: 'boolean' },
      rate: { type: 'string' },
      'dry-run': { type: 'boolean' },
    },
    optionHelp: [
      ['--reason R', 'why (required; kept in the audit trail)'],
      ['--target-topic T', 'replay there instead of the source topic (an allowed one)'],
      ['--new-message-id', 'give the handoff a fresh message_id so it is processed again'],
      ['--override-trust', 'replay one dead letter the trust gate refuses (needs the trust-override role; audited)'],
      ['--all', 'bulk: every dead letter of TOPIC'],
      ...FILTER_HELP.map(([flag, text]) => [flag, `bulk: ${text}`] as const),
      ['--rate N', 'bulk: replays per second (default 10)'],
      ['--dry-run', 'bulk: print the plan only; nothing is replayed'],
    ],
    operands: { min: 1, max: 2, names: 'TOPIC [ID]' },
  },
  {
    name: 'acls',
    usage:
      'baton acls [--prefix P] [--format kafka-acls|strimzi] [--bootstrap-server HOST:PORT] [--command-config FILE]\n' +
      '  [--cluster NAME] [--authentication scram-sha-512|tls] [--namespace NS]',
    summary: "each service's Kafka principal and least-privilege ACLs, as kafka-acls.sh commands or Strimzi KafkaUsers",
    options: {
      prefix: { type: 'string' },
      format: { type: 'string' },
      'bootstrap-server': { type: 'string' },
      'command-config': { type: 'string' },
      cluster: { type: 'string' },
      authentication: { type: 'string' },
      namespace: { type: 'string' },
    },
    optionHelp: [
      ['--prefix P', 'the topic prefix (default $BATON_TOPIC_PREFIX, else baton)'],
      ['--format F', 'kafka-acls (default): kafka-acls.sh --add lines; strimzi: KafkaUser YAML'],
      ['--bootstrap-server B', 'kafka-acls: the broker to run them against (default localhost:9092)'],
      ['--command-config FILE', "kafka-acls: the admin client's properties (SASL/TLS)"],
      ['--cluster NAME', 'strimzi: the Kafka cluster, label strimzi.io/cluster (default baton)'],
      ['--authentication A', 'strimzi: scram-sha-512 (default) or tls'],
      ['--namespace NS', 'strimzi: metadata.namespace (default none)'],
    ],
    operands: { min: 0, max: 0, names: '' },
  },
  {
    name: 'help',
    usage: 'baton help [COMMAND]',
    summary: 'this help, or the help of one command',
    options: {},
    optionHelp: [],
    operands: { min: 0, max: 2, names: 'COMMAND' },
  },
  {
    name: 'mcp',
    usage: 'baton mcp',
    summary:
      "the operator's actions as MCP tools on stdio, for an assistant: find and read tasks, list, show and replay dead letters, publish a handoff",
    options: {},
    optionHelp: [],
    operands: { min: 0, max: 0, names: '' },
  },
];

export type OptionValue = string | boolean | string[] | undefined;

export interface ParsedCommandLine {
  command: CommandName;
  operands: string[];
  /** The command's own options, by their long names. */
  options: Record<string, OptionValue>;
  global: { gateway?: string; token?: string; json: boolean; help: boolean };
}

export function commandSpec(name: CommandName): CommandSpec {
  const spec = COMMANDS.find((command) => command.name === name);
  if (!spec) throw new Error(`no command ${name}`);
  return spec;
}

/** Every option of every command, so a first lenient pass finds the operands whatever the command. */
function allOptions(): OptionSpecs {
  return Object.assign({}, GLOBAL_OPTIONS, ...COMMANDS.map((command) => command.options)) as OptionSpecs;
}

/** The command the leading words name, and how many words that took; undefined for none. */
export function resolveCommand(words: readonly string[]): { name: CommandName; length: number } | undefined {
  const [first, second] = words;
  if (first === undefined) return undefined;
  if (first === 'dlq') {
    if (second === undefined) throw usageError('dlq needs a subcommand: list, messages, show or replay');
    const name = `dlq ${second}`;
    if (!(COMMAND_NAMES as readonly string[]).includes(name)) {
      throw usageError(`unknown dlq subcommand "${second}"; see baton help dlq`);
    }
    return { name: name as CommandName, length: 2 };
  }
  if (first.includes(' ') || !(COMMAND_NAMES as readonly string[]).includes(first)) {
    throw usageError(`unknown command "${first}"; see baton help`);
  }
  return { name: first as CommandName, length: 1 };
}

function strictParse(argv: readonly string[], options: OptionSpecs) {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
  } catch (error) {
    throw usageError((error as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
}

/**
 * Parses `baton`'s arguments: the command (one word, or two for dlq), its operands, its options
 * and the global ones anywhere on the line. Throws a USAGE CliError for anything it does not take.
 * No command, or `--help`, is the help command.
 */
export function parseCommandLine(argv: readonly string[]): ParsedCommandLine {
  const lenient = parseArgs({ args: [...argv], options: allOptions(), strict: false, allowPositionals: true });
  if (lenient.values.help === true) {
    // Help for whatever the words name, even an incomplete command such as `baton dlq --help`.
    return {
      command: 'help',
      operands: lenient.positionals.slice(0, 2),
      options: {},
      global: { json: false, help: true },
    };
  }
  const resolved = resolveCommand(lenient.positionals);
  const name = resolved?.name ?? 'help';
  const spec = commandSpec(name);
  const { values, positionals } = strictParse(argv, { ...GLOBAL_OPTIONS, ...spec.options });
  const operands = positionals.slice(resolved?.length ?? 0);
  const { gateway, token, json, help, ...options } = values as Record<string, OptionValue>;
  const global = {
    ...(typeof gateway === 'string' ? { gateway } : {}),
    ...(typeof token === 'string' ? { token } : {}),
    json: json === true,
    help: help === true,
  };
  if (operands.length < spec.operands.min || operands.length > spec.operands.max) {
    const expected =
      spec.operands.max === 0
        ? 'takes no operands'
        : `takes ${spec.operands.names}${operands.length > spec.operands.max ? ` only, not "${operands.slice(spec.operands.max).join(' ')}"` : ''}`;
    throw usageError(`${name} ${expected}; usage: ${spec.usage.split('\n')[0]}`);
  }
  return { command: name, operands, options, global };
}

/** An option's string value, or undefined. */
export function stringOption(options: Record<string, OptionValue>, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
}

/** An ISO 8601 instant option, checked to parse. */
export function instantOption(options: Record<string, OptionValue>, name: string): string | undefined {
  const value = stringOption(options, name);
  if (value !== undefined && Number.isNaN(Date.parse(value))) {
    throw usageError(`--${name} must be an ISO 8601 date-time such as 2025-01-31T12:00:00Z, not "${value}"`);
  }
  return value;
}

export function booleanOption(options: Record<string, OptionValue>, name: string): boolean {
  return options[name] === true;
}

export function listOption(options: Record<string, OptionValue>, name: string): string[] {
  const value = options[name];
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
}

/** A whole number option within [min, max], or undefined when absent; a USAGE error otherwise. */
export function integerOption(
  options: Record<string, OptionValue>,
  name: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  const text = stringOption(options, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < min || value > max) {
    throw usageError(
      `--${name} must be a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}, not "${text}"`,
    );
  }
  return value;
}

/** A positive number option, or undefined when absent; a USAGE error otherwise. */
export function positiveNumberOption(options: Record<string, OptionValue>, name: string): number | undefined {
  const text = stringOption(options, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0) {
    throw usageError(`--${name} must be a positive number, not "${text}"`);
  }
  return value;
}

/** The gateway and token to use: options first, then the environment, then the default gateway. */
export function resolveConnection(
  global: ParsedCommandLine['global'],
  env: Record<string, string | undefined>,
): { gatewayUrl: string; token: string | undefined } {
  const gatewayUrl = global.gateway ?? (env.BATON_GATEWAY_URL || 'http://127.0.0.1:8080');
  const token = global.token ?? (env.BATON_TOKEN || undefined);
  return { gatewayUrl, token };
}
