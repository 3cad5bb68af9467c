import type { TaskAnswer, TimelineEvent, UserReply } from '@baton/gateway-api';
import { api, ApiError, segment } from '../api.js';
import { badge, code, fillList, h, show, table, taskLink, tbody, timeElement, type Tone } from '../dom.js';
import { followEvents, type StreamState } from '../event-stream.js';
import { Latest, run, showError } from '../feedback.js';
import { taskHash } from '../router.js';
import { flowDiagram } from './task-flow.js';
import { negotiationCard, stepRow } from './task-steps.js';

/** FAILED and EXPIRED are final: the task is not processed further. */
export const STATUS_TONES: Record<string, Tone> = {
  FINISH: 'good',
  BREAK: 'bad',
  FAILED: 'bad',
  EXPIRED: 'bad',
  WAITING: 'warn',
};
/** Steps often come in bursts (routed, then completed): the summary is read once per burst. */
const SUMMARY_AFTER_STEP_MS = 300;
const STREAM_STATES: Record<StreamState, string> = {
  open: 'Following the task live.',
  reconnecting: 'Connection lost; reconnecting…',
  closed: 'Not following the task.',
};

/** What the task list shows of one task, and how it comes back to the list. */
export interface TaskDetail {
  root: HTMLElement;
  /** Shows the task and follows it live; `back` is the list's hash to return to. */
  open(taskId: string, back: string): void;
  /** Stops following the task. */
  leave(): void;
}

/**
 * A task: its status, owner, parents and children, its timeline and negotiations, and the replies
 * to the user. While shown it follows GET /v1/tasks/{id}/events, which sends the known steps first
 * and then each new one, so the timeline grows without a reload. An id that is no task's may be a
 * flow's correlation id: its one task is opened, or its tasks are listed.
 */
export function taskDetail(): TaskDetail {
  const backLink = h('a', { text: '← All tasks', attrs: { href: '#/tasks', 'data-testid': 'task-back' } });
  const heading = h('h2', { text: 'Task', attrs: { id: 'task-heading', 'data-testid': 'task-heading' } });
  const refresh = h('button', {
    text: 'Refresh',
    className: 'secondary',
    attrs: { type: 'button', 'data-testid': 'task-refresh' },
    on: { click: () => taskId && open(taskId) },
  });
  const live = h('p', { className: 'subtle', attrs: { 'data-testid': 'live-status', role: 'status' } });
  const status = h('p', { className: 'subtle', attrs: { 'data-testid': 'timeline-status' } });
  const summary = h('dl', { className: 'task-summary', attrs: { 'data-testid': 'task-summary', hidden: true } });
  const timeline = table(
    'timeline-table',
    "The task's events across agents, in the order they were published: outcomes, lifecycle messages of negotiated handoffs, and staged contexts",
    ['#', 'Time', 'Agent', 'Outcome or message', 'Handoff type', 'Sender → receiver', 'Target', 'Detail'],
    'data timeline',
  );
  const flow = h('div', { className: 'flow-wrap', attrs: { 'data-testid': 'flow' } });
  const flowSection = part('Flow', flow);
  const replies = h('ol', { className: 'replies', attrs: { 'data-testid': 'replies' } });
  const repliesSection = part('Replies to the user', replies);
  const negotiationList = h('div', { attrs: { 'data-testid': 'negotiation-list' } });
  const negotiations = part('Negotiated handoffs', negotiationList, {
    className: 'negotiations',
    testId: 'negotiations',
  });
  const root = h(
    'section',
    { attrs: { 'data-testid': 'view-task', 'aria-labelledby': 'task-heading' } },
    h(
      'div',
      { className: 'card' },
      h('p', { className: 'back' }, backLink),
      h('div', { className: 'card-head' }, heading, live, refresh),
      status,
      summary,
      flowSection,
      h('div', { className: 'table-wrap' }, timeline),
      repliesSection,
      negotiations,
    ),
  );

  const latest = new Latest();
  let taskId: string | undefined;
  let stream: AbortController | undefined;
  let summaryTimer: number | undefined;
  let steps = 0;

  async function loadSummary(id: string): Promise<void> {
    const isLatest = latest.next();
    let answer: TaskAnswer;
    try {
      answer = await api<TaskAnswer>('GET', `v1/tasks/${segment(id)}`);
    } catch (error) {
      // Not a task id: perhaps a flow's correlation id; else a task not seen yet, followed from its first event.
      if (error instanceof ApiError && error.code === 'TASK_NOT_FOUND') {
        const flow = await api<{ tasks: { task_id: string }[] }>(
          'GET',
          `v1/tasks?correlation_id=${encodeURIComponent(id)}`,
        );
        if (!isLatest()) return;
        const [only, ...more] = flow.tasks.map((task) => task.task_id);
        if (only !== undefined && more.length === 0) window.location.replace(taskHash(only));
        else if (only !== undefined)
          status.replaceChildren(`The flow ${id} has these tasks: `, ...links([only, ...more]));
        else status.textContent = `Task ${id} has no event yet; waiting for its first.`;
        return;
      }
      throw error;
    }
    if (!isLatest()) return;
    fillList(summary, [
      ['Status', badge(answer.status, STATUS_TONES[answer.status] ?? 'info'), 'status'],
      ['Owner', answer.owner ? code(answer.owner) : '—', 'owner'],
      ['Parents', answer.parent_task_ids.length > 0 ? links(answer.parent_task_ids) : '—', 'parents'],
      ['Children', answer.children.length > 0 ? links(answer.children) : '—', 'children'],
      ...(answer.refused.length > 0
        ? [['Refused messages', String(answer.refused.length), 'refused'] as [string, string, string]]
        : []),
    ]);
    show(summary, true);
    flow.replaceChildren(flowDiagram(answer.events));
    show(flowSection, answer.events.length > 0);
    negotiationList.replaceChildren(...answer.negotiations.map(negotiationCard));
    show(negotiations, answer.negotiations.length > 0);
  }

  function onStep(step: TimelineEvent): void {
    tbody(timeline).append(stepRow(step, steps));
    steps += 1;
    status.textContent = `${steps} step(s) of task ${taskId}.`;
    window.clearTimeout(summaryTimer);
    const id = taskId as string;
    summaryTimer = window.setTimeout(() => void loadSummary(id).catch(showError), SUMMARY_AFTER_STEP_MS);
  }

  function onReply(reply: UserReply): void {
    replies.append(
      h(
        'li',
        { attrs: { 'data-testid': 'reply', 'data-agent': reply.agent_id } },
        timeElement(reply.time),
        ' ',
        h('code', { text: reply.agent_id }),
        ': ',
        reply.message,
      ),
    );
    show(repliesSection, true);
  }

  function stop(): void {
    stream?.abort();
    stream = undefined;
    window.clearTimeout(summaryTimer);
    latest.cancel();
  }

  function open(id: string): void {
    stop();
    taskId = id;
    steps = 0;
    heading.textContent = `Task ${id}`;
    document.title = `Task ${id} · Baton`;
    tbody(timeline).replaceChildren();
    replies.replaceChildren();
    show(repliesSection, false);
    show(summary, false);
    show(flowSection, false);
    flow.replaceChildren();
    show(negotiations, false);
    status.textContent = `Loading task ${id}…`;
    void run(() => loadSummary(id));
    const controller = new AbortController();
    stream = controller;
    void followEvents(
      `v1/tasks/${segment(id)}/events`,
      {
        onEvent(event) {
          if (event.event === 'step') onStep(JSON.parse(event.data) as TimelineEvent);
          else if (event.event === 'reply') onReply(JSON.parse(event.data) as UserReply);
        },
        onState(state, error) {
          live.dataset.state = state;
          live.textContent = STREAM_STATES[state];
          if (error) showError(error);
        },
      },
      controller.signal,
    );
  }

  return {
    root,
    open(id, back) {
      backLink.setAttribute('href', back);
      // The task followed already: nothing to do.
      if (id !== taskId || stream === undefined) open(id);
    },
    leave() {
      stop();
      taskId = undefined;
      live.dataset.state = 'closed';
      live.textContent = STREAM_STATES.closed;
    },
  };
}

/** A part of the task's page under a heading of its own, hidden until it has something to show. */
function part(title: string, content: HTMLElement, options: { className?: string; testId?: string } = {}): HTMLElement {
  return h(
    'section',
    { className: options.className, attrs: { hidden: true, 'aria-label': title, 'data-testid': options.testId } },
    h('h4', { text: title }),
    content,
  );
}

function links(taskIds: string[]): HTMLElement[] {
  return taskIds.flatMap((id, index) => (index === 0 ? [taskLink(id)] : [h('span', { text: ', ' }), taskLink(id)]));
}
