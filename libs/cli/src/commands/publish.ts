import type { AcceptedHandoff } from '@baton/gateway-api';
import { readFile } from 'node:fs/promises';
import { buildHandoff, HandoffValidationError, type HandoffDraft } from '@baton/protocol';
import { CliError, EXIT, usageError } from '../errors.js';
import type { Command } from '../context.js';
import { formatFields } from '../format.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function readInput(source: string | undefined, context: Parameters<Command>[0]): Promise<[string, string]> {
  if (source === undefined || source === '-') {
    if (source === undefined && context.io.stdinIsTty) {
      throw usageError('publish reads a handoff from FILE, or from standard input: baton publish FILE|-');
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
 * priority) and validates it; an invalid one is a VALIDATION_FAILED CliError listing every issue.
 */
export function buildFromJson(text: string, name: string): ReturnType<typeof buildHandoff> {
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
        `${name}: invalid handoff, ${error.issues.length} issue${error.issues.length === 1 ? '' : 's'}; nothing published`,
        { exitCode: EXIT.USAGE, issues: error.issues },
      );
    }
    throw error;
  }
}

/** `baton publish [FILE|-]`: validate locally, then POST /v1/handoffs. */
export const publish: Command = async (context) => {
  const [name, text] = await readInput(context.operands[0], context);
  const message = buildFromJson(text, name);
  const accepted = await context.gateway().post<AcceptedHandoff>('/v1/handoffs', message);
  if (context.json) return context.printJson(accepted);
  context.print(
    formatFields([
      ['message_id', accepted.message_id],
      ['task_id', accepted.task_id],
      ['topic', accepted.topic],
      ['partition', String(accepted.partition)],
      ['offset', accepted.offset],
    ]),
  );
};
