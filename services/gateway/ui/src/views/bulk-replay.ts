import type { ReplayJob } from '@baton/gateway-api';
import { api, segment } from '../api.js';
import { badge, fillList, h, show } from '../dom.js';
import { Latest, run } from '../feedback.js';
import { jobFilter } from './dead-letter-filters.js';

/** How often a started job's progress is read while it runs. */
const PROGRESS_MS = 1000;

/**
 * Bulk replay of the filtered dead letters of one DLQ topic: a dry run first (POST /v1/replays
 * plans the job and replays nothing), then Start, then its progress until it ends.
 */
export function bulkReplay() {
  const reason = h('input', {
    attrs: { id: 'bulk-reason', required: true, maxlength: 1000, 'data-testid': 'bulk-reason' },
  });
  const dryRun = h('button', { text: 'Dry run', attrs: { type: 'submit', 'data-testid': 'bulk-dry-run' } });
  const start = h('button', { text: 'Start', attrs: { type: 'button', 'data-testid': 'bulk-start', disabled: true } });
  const plan = h('dl', { attrs: { 'data-testid': 'bulk-plan', hidden: true } });
  const form = h(
    'form',
    { attrs: { 'data-testid': 'bulk-form', autocomplete: 'off' } },
    h(
      'div',
      { className: 'field wide' },
      h('label', { attrs: { for: 'bulk-reason' } }, 'Reason ', h('span', { className: 'subtle', text: '(required)' })),
      reason,
    ),
    h('div', { className: 'actions' }, dryRun, ' ', start),
  );
  const root = h(
    'section',
    { className: 'card', attrs: { 'data-testid': 'bulk-replay', 'aria-label': 'Bulk replay', hidden: true } },
    h('h3', { text: 'Replay every dead letter of this list' }),
    form,
    plan,
  );

  const latest = new Latest();
  let filters = new URLSearchParams();
  let job: ReplayJob | undefined;

  function render(current: ReplayJob): void {
    job = current;
    root.dataset.state = current.state;
    fillList(plan, [
      ['Job', h('code', { text: current.job_id }), 'job_id'],
      ['State', badge(current.state, current.state === 'completed' ? 'good' : 'info'), 'state'],
      ['Dead letters', String(current.plan.count), 'count'],
      [
        'Sent to',
        Object.entries(current.plan.targets)
          .map(([topic, count]) => `${topic}: ${count}`)
          .join(', ') || '—',
        'targets',
      ],
      [
        'Replayed / refused / failed / left',
        `${current.progress.replayed} / ${current.progress.refused} / ${current.progress.failed} / ${current.progress.remaining}`,
        'progress',
      ],
    ]);
    show(plan, true);
    start.disabled = current.state !== 'planned' || current.plan.count === 0;
  }

  async function follow(jobId: string): Promise<void> {
    const isLatest = latest.next();
    while (isLatest() && (job?.state === 'running' || job?.state === 'paused')) {
      await new Promise((resolve) => window.setTimeout(resolve, PROGRESS_MS));
      const current = await api<ReplayJob>('GET', `v1/replays/${segment(jobId)}`);
      if (isLatest()) render(current);
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!reason.value.trim()) return reason.focus();
    void run(async () => {
      latest.cancel();
      const topic = filters.get('topic') ?? '';
      render(
        await api<ReplayJob>('POST', 'v1/replays', {
          dlq_topic: topic,
          filter: jobFilter(filters),
          reason: reason.value.trim(),
        }),
      );
    });
  });

  start.addEventListener('click', () => {
    if (!job) return;
    const jobId = job.job_id;
    void run(async () => {
      start.disabled = true;
      render(await api<ReplayJob>('POST', `v1/replays/${segment(jobId)}/start`));
      await follow(jobId);
    });
  });

  return {
    root,
    /** Offered for a list of one DLQ topic (a job replays one topic); a new list forgets the last plan. */
    use(next: URLSearchParams): void {
      if (next.toString() !== filters.toString()) {
        latest.cancel();
        job = undefined;
        show(plan, false);
        start.disabled = true;
        delete root.dataset.state;
      }
      filters = next;
      show(root, next.has('topic'));
    },
  };
}
