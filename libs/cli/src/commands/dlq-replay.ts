import type { DeadLetterFilterParameters, ReplayJob } from '@baton/gateway-api';
import { setTimeout as sleep } from 'node:timers/promises';
import { booleanOption, positiveNumberOption, stringOption } from '../args.js';
import type { CommandContext } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import { formatTable } from '../format.js';
import type { GatewayClient } from '../gateway-client.js';

/** How often a running job's progress is asked for. */
export const POLL_INTERVAL_MS = 500;

/** The plan as lines: where the dead letters would go, and each of them. */
export function planLines(job: ReplayJob): string[] {
  const targets = Object.entries(job.plan.targets).map(([topic, count]) => ({ topic, count }));
  return [
    `replay job ${job.job_id}: ${job.plan.count} dead letter${job.plan.count === 1 ? '' : 's'} of ${job.dlq_topic}` +
      ` at ${job.rate_per_second}/s`,
    ...(job.plan.count === 0
      ? []
      : [
          '',
          ...formatTable(
            [
              { header: 'TARGET', value: (row: { topic: string; count: number }) => row.topic },
              { header: 'COUNT', value: (row) => row.count, align: 'right' },
            ],
            targets,
          ),
          '',
          ...formatTable(
            [
              { header: 'ID', value: (item: ReplayJob['plan']['items'][number]) => item.id },
              { header: 'TASK', value: (item) => item.task_id },
              { header: 'MESSAGE_ID', value: (item) => item.message_id },
              { header: 'TARGET', value: (item) => item.target_topic },
            ],
            job.plan.items,
          ),
          ...(job.plan.items_truncated ? [`(the first ${job.plan.items.length} of ${job.plan.count} shown)`] : []),
        ]),
  ];
}

export function progressLine(job: ReplayJob): string {
  const { progress } = job;
  return (
    `replay ${job.job_id} ${job.state}: ${progress.replayed}/${progress.total} replayed, ` +
    `${progress.refused} refused, ${progress.failed} failed, ${progress.remaining} remaining`
  );
}

async function stopJob(gateway: GatewayClient, jobId: string): Promise<ReplayJob> {
  return gateway.post<ReplayJob>(`/v1/replays/${encodeURIComponent(jobId)}/stop`);
}

/** Polls the job until it is completed or stopped, printing each change of progress on stderr. */
async function follow(context: CommandContext, started: ReplayJob): Promise<ReplayJob> {
  const gateway = context.gateway();
  const path = `/v1/replays/${encodeURIComponent(started.job_id)}`;
  let job = started;
  let shown = '';
  for (;;) {
    const line = progressLine(job);
    if (line !== shown) context.note((shown = line));
    if (job.state === 'completed' || job.state === 'stopped') return job;
    try {
      await sleep(POLL_INTERVAL_MS, undefined, { signal: context.io.signal });
    } catch {
      const stopped = await stopJob(gateway, job.job_id).catch(() => job);
      context.note(`interrupted: replay job ${job.job_id} stopped`);
      return stopped;
    }
    job = await gateway.get<ReplayJob>(path);
  }
}

/**
 * A bulk replay: plans it (POST /v1/replays, the dry run), prints the plan, then either stops the
 * planned job (--dry-run, or nothing to replay) or starts it and follows its progress until it
 * completes. Exits REPLAY_FAILED (4) when any item was refused or failed, or the job was stopped before the end.
 */
export async function bulkReplay(
  context: CommandContext,
  request: { topic: string; reason: string; filter: DeadLetterFilterParameters },
): Promise<number | void> {
  const gateway = context.gateway();
  const rate = positiveNumberOption(context.options, 'rate');
  const targetTopic = stringOption(context.options, 'target-topic');
  const dryRun = booleanOption(context.options, 'dry-run');
  const planned = await gateway.post<ReplayJob>('/v1/replays', {
    dlq_topic: request.topic,
    reason: request.reason,
    ...(Object.keys(request.filter).length > 0 ? { filter: request.filter } : {}),
    ...(targetTopic === undefined ? {} : { target_topic: targetTopic }),
    ...(booleanOption(context.options, 'new-message-id') ? { new_message_id: true } : {}),
    ...(rate === undefined ? {} : { rate_per_second: rate }),
  });
  if (!context.json) context.print(planLines(planned));
  if (dryRun || planned.plan.count === 0) {
    // A planned job would linger in the gateway; the plan has been shown, so it is stopped.
    await stopJob(gateway, planned.job_id);
    if (context.json) return context.printJson(planned);
    return context.print(['', dryRun ? 'dry run: nothing replayed' : 'nothing to replay']);
  }
  const started = await gateway.post<ReplayJob>(`/v1/replays/${encodeURIComponent(planned.job_id)}/start`);
  const done = await follow(context, started);
  for (const error of done.errors) {
    context.note(
      `  ${error.reason_code === undefined ? 'failed' : 'refused'} ${error.id}: ${error.code}: ${error.message}`,
    );
  }
  if (context.json) context.printJson(done);
  else {
    context.print([
      '',
      `${done.state}: replayed ${done.progress.replayed} of ${done.progress.total}, ` +
        `refused ${done.progress.refused}, failed ${done.progress.failed}`,
    ]);
  }
  if (done.progress.failed > 0 || done.progress.refused > 0 || done.state !== 'completed') {
    throw new CliError(
      'REPLAY_INCOMPLETE',
      `replay job ${done.job_id} ${done.state} with ${done.progress.refused} refused, ${done.progress.failed} failed ` +
        `and ${done.progress.remaining} not replayed`,
      { exitCode: EXIT.REPLAY_FAILED },
    );
  }
}
