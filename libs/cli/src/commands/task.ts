import { setTimeout as sleep } from 'node:timers/promises';
import { SseParser, type TaskAnswer, type TimelineEvent, type UserReply } from '@baton/gateway-api';
import type { Command, CommandContext } from '../context.js';
import { integerOption } from '../args.js';
import { CliError } from '../errors.js';
import { segment } from '../gateway-client.js';
import { formatTask, formatTimelineStep } from './task-format.js';

/** How long a follow waits before reconnecting to a stream that broke. */
const RECONNECT_MS = 1_000;

/**
 * `baton task TASK_ID`: the task's timeline as a table, then its negotiated handoffs; `--json` the
 * answer as is. `--follow`: its steps and replies as they happen (see follow).
 */
export const task: Command = async (context) => {
  const [taskId = ''] = context.operands;
  if (context.options.follow === true) return follow(context, taskId);
  const answer = await context.gateway().get<TaskAnswer>(`/v1/tasks/${segment(taskId)}`);
  if (context.json) return context.printJson(answer);
  context.print(formatTask(answer));
};

/**
 * Prints each step of the task's timeline and each reply to the user as the gateway streams them
 * (GET /v1/tasks/{task_id}/events): a line each, or with --json each event as a JSON line. A broken
 * stream (the gateway restarting, say) is resumed after the last event printed, so none is printed
 * twice or missed; it ends on Ctrl-C, or after --max events.
 */
async function follow(context: CommandContext, taskId: string): Promise<void> {
  const max = integerOption(context.options, 'max', 1);
  const { signal } = context.io;
  let lastEventId: string | undefined;
  let printed = 0;
  context.note(`following task ${taskId} (Ctrl-C to stop)`);
  const done = new AbortController();
  const stop = AbortSignal.any([signal, done.signal]);
  while (!stop.aborted) {
    const parser = new SseParser();
    try {
      for await (const chunk of context
        .gateway()
        .stream(`/v1/tasks/${segment(taskId)}/events`, { lastEventId, signal: stop })) {
        for (const event of parser.push(chunk)) {
          lastEventId = event.id ?? lastEventId;
          const data = JSON.parse(event.data) as TimelineEvent | UserReply;
          // One JSON document a line, for a script reading the stream as it comes.
          if (context.json) context.print(JSON.stringify({ id: event.id, event: event.event, data }));
          else
            context.print(
              data.kind === 'reply'
                ? `${data.time}  ${data.agent_id}  REPLY  ${data.message}`
                : formatTimelineStep(data),
            );
          printed += 1;
          if (max !== undefined && printed >= max) done.abort();
        }
      }
    } catch (error) {
      if (stop.aborted) return;
      // A refusal (no credential, no viewer role) will not pass by waiting; a broken connection may.
      if (error instanceof CliError && error.code !== 'GATEWAY_UNAVAILABLE') throw error;
      context.note(`${error instanceof Error ? error.message : String(error)}; trying again`);
    }
    await sleep(RECONNECT_MS, undefined, { signal: stop }).catch(() => undefined);
  }
}
