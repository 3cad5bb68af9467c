import { COMMANDS, GLOBAL_OPTION_HELP, type CommandSpec } from './args.js';
import { EXIT } from './errors.js';
import { usageError } from './errors.js';

function optionLines(help: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(0, ...help.map(([flag]) => flag.length));
  return help.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`);
}

const EXIT_HELP = [
  `Exit codes: ${EXIT.OK} done; ${EXIT.USAGE} bad arguments or invalid input; ${EXIT.REFUSED} refused by the gateway (4xx) or not found;`,
  `${EXIT.UNAVAILABLE} gateway, Kafka or registry unavailable (5xx, connection refused); ${EXIT.REPLAY_FAILED} a bulk replay had failures.`,
];

function commandHelp(spec: CommandSpec): string[] {
  return [
    `usage: ${spec.usage}`,
    '',
    spec.summary,
    ...(spec.optionHelp.length > 0 ? ['', 'options:', ...optionLines(spec.optionHelp)] : []),
    '',
    'global options:',
    ...optionLines(GLOBAL_OPTION_HELP),
  ];
}

/** The help text: of every command, of one command, or of a group (`dlq`). */
export function helpText(words: readonly string[] = []): string[] {
  const topic = words.join(' ').trim();
  if (topic === '') {
    const width = Math.max(...COMMANDS.map((spec) => spec.name.length));
    return [
      'baton: publish and negotiate handoffs, follow topics, inspect tasks and agents, replay dead letters',
      '',
      'usage: baton COMMAND [options]',
      '',
      'commands:',
      ...COMMANDS.map((spec) => `  ${spec.name.padEnd(width)}  ${spec.summary}`),
      '',
      'global options:',
      ...optionLines(GLOBAL_OPTION_HELP),
      '',
      ...EXIT_HELP,
      "See baton help COMMAND for a command's options.",
    ];
  }
  const spec = COMMANDS.find((command) => command.name === topic);
  if (spec) return commandHelp(spec);
  const group = COMMANDS.filter((command) => command.name.startsWith(`${topic} `));
  if (group.length > 0) return group.flatMap((command) => [...commandHelp(command).slice(0, 3), '']).slice(0, -1);
  throw usageError(`no command "${topic}"; see baton help`);
}
