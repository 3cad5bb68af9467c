import { parseCommandLine, resolveConnection, type CommandName } from './args.js';
import type { CliIo, Command, CommandContext } from './context.js';
import { EXIT, formatError, toCliError } from './errors.js';
import { GatewayClient } from './gateway-client.js';
import { helpText } from './help.js';

/** Each command's module, loaded when it runs: `baton agents` need not load Kafka or Avro. */
const COMMAND_MODULES: Record<Exclude<CommandName, 'help'>, () => Promise<Command>> = {
  publish: async () => (await import('./commands/publish.js')).publish,
  negotiate: async () => (await import('./commands/negotiate.js')).negotiate,
  tail: async () => (await import('./commands/tail.js')).tail,
  task: async () => (await import('./commands/task.js')).task,
  tasks: async () => (await import('./commands/tasks.js')).tasks,
  agents: async () => (await import('./commands/agents.js')).agents,
  overview: async () => (await import('./commands/overview.js')).overview,
  'dlq list': async () => (await import('./commands/dlq.js')).dlqList,
  'dlq messages': async () => (await import('./commands/dlq.js')).dlqMessages,
  'dlq show': async () => (await import('./commands/dlq.js')).dlqShow,
  'dlq replay': async () => (await import('./commands/dlq.js')).dlqReplay,
  acls: async () => (await import('./commands/acls.js')).acls,
  mcp: async () => (await import('./commands/mcp.js')).mcp,
};

function lines(text: string | readonly string[]): string {
  return `${(typeof text === 'string' ? [text] : text).join('\n')}\n`;
}

/**
 * Runs `baton` with `argv` (the arguments after the command's name) and resolves with its exit
 * code. Every failure is printed on stderr as `error CODE: message` (one more line per issue).
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const parsed = parseCommandLine(argv);
    if (parsed.command === 'help') {
      io.stdout(lines(helpText(parsed.operands)));
      return EXIT.OK;
    }
    const { gatewayUrl, token } = resolveConnection(parsed.global, io.env);
    let client: GatewayClient | undefined;
    const context: CommandContext = {
      io,
      operands: parsed.operands,
      options: parsed.options,
      json: parsed.global.json,
      gateway: () => (client ??= new GatewayClient({ baseUrl: gatewayUrl, token, fetch: io.fetch })),
      print: (text) => void io.stdout(lines(text)),
      note: (text) => void io.stderr(lines(text)),
      printJson: (value) => void io.stdout(`${JSON.stringify(value, null, 2)}\n`),
    };
    const command = await COMMAND_MODULES[parsed.command]();
    const code = await command(context);
    return typeof code === 'number' ? code : EXIT.OK;
  } catch (error) {
    const failure = toCliError(error);
    io.stderr(lines(formatError(failure)));
    return failure.exitCode;
  }
}
