import { readFile } from 'node:fs/promises';
import { buildHandoff, HandoffValidationError, type HandoffDraft } from '@baton/protocol';
import type { CommandContext } from '../context.js';
import { CliError, EXIT, usageError } from '../errors.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The handoff JSON a command reads, with the name its errors give it: FILE, or standard input for - or none. */
export async function readHandoffInput(
  source: string | undefined,
  context: Pick<CommandContext, 'io'>,
  command: string,
): Promise<[string, string]> {
  if (source === undefined || source === '-') {
    if (source === undefined && context.io.stdinIsTty) {
      throw usageError(`${command} reads a handoff from FILE, or from standard input: baton ${command} FILE|-`);
    }
    return ['standard input', await context.io.readStdin()];
  }
  try {
    return [source, await readFile(source, 'utf8')];
  } catch (error) {
    throw new CliError('FILE_UNREADABLE', `cannot read ${source}: ${(error as Error).message}`, {
      exitCode: EXIT.USAGE,
    });
  }
}

/**
 * Builds the handoff as the gateway does (filling message_id, timestamp, protocol_version and
 * priority) and validates it; an invalid one is a VALIDATION_FAILED CliError listing every issue,
 * saying that `nothingDone` (nothing published, nothing sent) happened.
 */
export function buildFromJson(
  text: string,
  name: string,
  nothingDone = 'nothing published',
): ReturnType<typeof buildHandoff> {
  let sent: unknown;
  try {
    sent = JSON.parse(text);
  } catch (error) {
    throw new CliError('JSON_INVALID', `${name} is not JSON: ${(error as Error).message}`, { exitCode: EXIT.USAGE });
  }
  if (!isObject(sent))
    throw new CliError('JSON_INVALID', `${name} must hold one JSON object`, { exitCode: EXIT.USAGE });
  const draft = { ...sent, metadata: isObject(sent.metadata) ? sent.metadata : {} } as unknown as HandoffDraft;
  try {
    return buildHandoff(draft);
  } catch (error) {
    if (error instanceof HandoffValidationError) {
      throw new CliError(
        error.code,
        `${name}: invalid handoff, ${error.issues.length} issue${error.issues.length === 1 ? '' : 's'}; ${nothingDone}`,
        { exitCode: EXIT.USAGE, issues: error.issues },
      );
    }
    throw error;
  }
}
