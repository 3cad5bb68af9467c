export { runCli } from './cli.js';
export type { CliIo, Command, CommandContext } from './context.js';
export {
  COMMANDS,
  COMMAND_NAMES,
  parseCommandLine,
  resolveCommand,
  resolveConnection,
  type CommandName,
  type CommandSpec,
  type ParsedCommandLine,
} from './args.js';
export {
  CliError,
  EXIT,
  apiError,
  exitCodeForStatus,
  formatError,
  toCliError,
  type ExitCode,
  type Issue,
} from './errors.js';
export { formatTable, formatFields, type Column } from './format.js';
export { GatewayClient, type GatewayClientOptions } from './gateway-client.js';
export { helpText } from './help.js';
export {
  decodeRecord,
  formatRecordLine,
  isEventsTopic,
  type DecodedRecord,
  type DecoderSource,
  type EventsDecoder,
  type RawRecord,
  type RecordKind,
  type ValueDecoder,
} from './record-decoder.js';
export { filterFromOptions } from './commands/dlq-filter.js';
export {
  CONNECTION_FILE,
  STATE_DIR_NAME,
  readSavedConnection,
  withSavedConnection,
  type LocalConnection,
} from './saved-connection.js';
