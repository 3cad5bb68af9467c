import type { OptionValue } from './args.js';
import type { GatewayClient } from './gateway-client.js';

/** Where the command reads and writes: the process's streams in main.ts, buffers in tests. */
export interface CliIo {
  /** Writes text as it is (commands add their newlines). */
  stdout(text: string): void;
  stderr(text: string): void;
  /** All of standard input, as text. */
  readStdin(): Promise<string>;
  /** True when standard input is a terminal (nothing piped). */
  stdinIsTty: boolean;
  env: Record<string, string | undefined>;
  /** Aborted on Ctrl-C / SIGTERM: long-running commands (tail, replay follow) stop cleanly. */
  signal: AbortSignal;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** What every command gets. */
export interface CommandContext {
  io: CliIo;
  operands: string[];
  options: Record<string, OptionValue>;
  json: boolean;
  /** The gateway client, made on first use (tail needs none). */
  gateway(): GatewayClient;
  /** Prints lines on stdout. */
  print(lines: string | readonly string[]): void;
  /** Prints lines on stderr: progress and notes that are not the answer. */
  note(lines: string | readonly string[]): void;
  /** Prints a value as JSON on stdout (the raw answer, for --json). */
  printJson(value: unknown): void;
}

export type Command = (context: CommandContext) => Promise<number | void>;
