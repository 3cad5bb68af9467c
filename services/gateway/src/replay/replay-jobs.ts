import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { BatonError, hasErrorCode, isBatonError } from '@baton/errors';
import type { ReplayJob } from '@baton/gateway-api';
import type { ConsumedRecord } from '@baton/kafka';
import type { Logger } from '@baton/runtime';
import { deadLetteredAt, parseFilter } from '../dead-letters/dead-letter-filter.js';
import { deadLetterId, type DeadLetterStore } from '../dead-letters/dead-letter-store.js';
import { nextJobState, type ReplayJobCommand } from './replay-job-state.js';
import type { Replayer } from './replayer.js';

/** Items a plan shows one by one; its counts cover every item. */
const PLAN_ITEMS_SHOWN = 1_000;

/** What an operator asks to replay: a job's request, as the route takes it. */
export type ReplayJobRequest = Pick<
  ReplayJob,
  'dlq_topic' | 'filter' | 'reason' | 'target_topic' | 'new_message_id' | 'rate_per_second'
>;

interface RunningJob {
  view: ReplayJob;
  letters: ConsumedRecord[];
  /** Resolves the wait of a paused job when it is resumed or stopped. */
  wake?: () => void;
  abort: AbortController;
}

/**
 * Bulk replays: planned first (the dry run: what would go where), then run at a fixed rate, one
 * dead letter after another; they can be paused, resumed and stopped, and report progress. Each
 * replay and each command is in the audit trail. Jobs live in the gateway instance that planned them.
 */
export class ReplayJobs {
  private readonly jobs = new Map<string, RunningJob>();

  constructor(
    private readonly store: DeadLetterStore,
    private readonly replayer: Replayer,
    private readonly logger: Logger,
  ) {}

  plan(request: ReplayJobRequest, actor: string): ReplayJob {
    // Oldest first: a bulk replay sends letters in the order they failed.
    const filter = parseFilter(request.filter, '/filter');
    if (!this.store.hasTopic(request.dlq_topic)) {
      throw new BatonError('DEAD_LETTER_NOT_FOUND', `no dead-letter topic "${request.dlq_topic}"`, {
        path: '/dlq_topic',
      });
    }
    const letters = this.store
      .matching(request.dlq_topic, filter)
      .reverse()
      .sort((a, b) => deadLetteredAt(a) - deadLetteredAt(b));
    const items = letters.map((letter) => ({
      id: deadLetterId(letter),
      ...(letter.headers.ce_id === undefined ? {} : { message_id: letter.headers.ce_id }),
      task_id: letter.key,
      target_topic: this.replayer.targetOf(letter, request.target_topic),
    }));
    const targets: Record<string, number> = {};
    for (const item of items) targets[item.target_topic] = (targets[item.target_topic] ?? 0) + 1;
    const view: ReplayJob = {
      ...request,
      job_id: randomUUID(),
      state: 'planned',
      actor,
      created_at: new Date().toISOString(),
      plan: {
        count: items.length,
        targets,
        items: items.slice(0, PLAN_ITEMS_SHOWN),
        items_truncated: items.length > PLAN_ITEMS_SHOWN,
      },
      progress: { total: items.length, replayed: 0, refused: 0, failed: 0, remaining: items.length },
      errors: [],
    };
    this.jobs.set(view.job_id, { view, letters, abort: new AbortController() });
    return structuredClone(view);
  }

  get(jobId: string): ReplayJob {
    return structuredClone(this.job(jobId).view);
  }

  list(): ReplayJob[] {
    return [...this.jobs.values()].map(({ view }) => structuredClone(view)).reverse();
  }

  async command(jobId: string, command: ReplayJobCommand, actor: string): Promise<ReplayJob> {
    const job = this.job(jobId);
    const next = nextJobState(job.view.state, command);
    await this.replayer.record(`replay_job.${command}`, {
      actor,
      reason: job.view.reason,
      dlqTopic: job.view.dlq_topic,
      jobId,
      outcome: next,
    });
    job.view.state = next;
    if (command === 'start') void this.run(job);
    if (command === 'stop') job.abort.abort();
    job.wake?.();
    return structuredClone(job.view);
  }

  /** Stops every running job: the gateway is shutting down. */
  stopAll(): void {
    for (const job of this.jobs.values()) {
      job.abort.abort();
      job.wake?.();
    }
  }

  private job(jobId: string): RunningJob {
    const job = this.jobs.get(jobId);
    if (!job) throw new BatonError('REPLAY_JOB_NOT_FOUND', `no replay job ${jobId}`, { path: '/job_id' });
    return job;
  }

  private async run(job: RunningJob): Promise<void> {
    const { view } = job;
    const intervalMs = 1_000 / view.rate_per_second;
    let due = Date.now();
    for (const letter of job.letters) {
      while (view.state === 'paused') await new Promise<void>((resolve) => (job.wake = resolve));
      if (view.state !== 'running') return;
      try {
        await sleep(Math.max(0, due - Date.now()), undefined, { signal: job.abort.signal });
      } catch {
        return;
      }
      due = Math.max(due, Date.now()) + intervalMs;
      try {
        await this.replayer.replay(letter, {
          actor: view.actor,
          reason: view.reason,
          targetTopic: view.target_topic,
          newMessageId: view.new_message_id,
          jobId: view.job_id,
        });
        view.progress.replayed += 1;
      } catch (error) {
        // A refused item is the gate doing its work, not a fault: counted apart, and the job goes on.
        const reasonCode = hasErrorCode(error, 'REPLAY_TRUST_REFUSED') ? error.details?.reason_code : undefined;
        if (reasonCode === undefined) view.progress.failed += 1;
        else view.progress.refused += 1;
        view.errors.push({
          id: deadLetterId(letter),
          code: isBatonError(error) ? error.code : 'KAFKA_UNAVAILABLE',
          message: (error as Error).message,
          ...(typeof reasonCode === 'string' ? { reason_code: reasonCode } : {}),
        });
      }
      view.progress.remaining -= 1;
    }
    await this.replayer
      .record('replay_job.complete', {
        actor: view.actor,
        reason: view.reason,
        dlqTopic: view.dlq_topic,
        jobId: view.job_id,
        outcome: `replayed ${view.progress.replayed}, refused ${view.progress.refused}, failed ${view.progress.failed}`,
      })
      .catch((error: unknown) =>
        this.logger.error({ event: 'replay_job.audit_failed', job_id: view.job_id, err: error }, 'audit failed'),
      );
    view.state = 'completed';
  }
}
