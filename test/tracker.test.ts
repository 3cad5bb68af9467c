import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHandoff } from '@baton/protocol';
import type { TaskView } from '@baton/task-tracking';
import {
  errorAnswer,
  startBatonRig,
  uniqueName,
  waitFor,
  type BatonRig,
  type ServiceProcess,
} from './helpers/index.js';

const TRACKER = 'services/tracker/src/main.ts';
const FLOW_TIMEOUT_MS = 90_000;

async function task(tracker: ServiceProcess, taskId: string): Promise<TaskView | undefined> {
  const response = await fetch(`${tracker.address}/v1/tasks/${encodeURIComponent(taskId)}`);
  if (response.status === 404) return undefined;
  if (!response.ok) throw new Error(`GET /v1/tasks/${taskId}: ${response.status}`);
  return (await response.json()) as TaskView;
}

async function ready(tracker: ServiceProcess): Promise<boolean> {
  return (await fetch(`${tracker.address}/readyz`)).status === 200;
}

describe('the tracker: who owns each task, rebuilt from the events topic', () => {
  let rig: BatonRig;
  const killed = new Set<string>();

  beforeAll(async () => {
    rig = await startBatonRig({
      name: 'tracker',
      agents: ['planner-agent', 'worker-agent', 'compiler-agent', 'reviewer-agent'],
    });
  });

  afterAll(async () => {
    const exitCodes = await rig?.stop();
    const drained = Object.entries(exitCodes).filter(([name]) => !killed.has(name));
    expect(
      drained.every(([, code]) => code === 0),
      JSON.stringify(exitCodes),
    ).toBe(true);
  });

  it('two trackers, one killed mid-run and restarted, end with the same state of every task', async () => {
    const steady = await rig.addProcess('tracker-a', TRACKER);
    const victim = await rig.addProcess('tracker-b', TRACKER);
    await waitFor(async () => (await ready(steady)) && (await ready(victim)), { description: 'both trackers ready' });

    // A workflow: three subtasks, each approved at its second review.
    const parent = uniqueName('requirement');
    await rig.publisher.publish(
      rig.topics.inbound,
      buildHandoff({
        metadata: { sender_id: 'user', recipient_id: 'workflow_desk', task_id: parent },
        payload: {
          handoff_type: 'TASK_TRANSFER',
          data: {
            issue_category: 'WORKFLOW',
            task_summary: 'Write the tracker guide',
            attributes: { subtasks: 3, max_review_rounds: 2, required_quality: [2, 2, 2] },
          },
        },
      }),
    );
    // A notification for the worker, which has no handler for it: dead-lettered (NO_HANDLER).
    const broken = uniqueName('broken');
    await rig.publisher.publish(
      rig.topics.inbound,
      buildHandoff({
        metadata: { sender_id: 'monitor', recipient_id: 'worker_agent', task_id: broken },
        payload: { handoff_type: 'NOTIFICATION', data: { event_type: 'PING', message: 'hello' } },
      }),
    );

    // Killed once it has seen the flow start, with no chance to close.
    await waitFor(async () => (await task(victim, parent)) !== undefined, {
      description: `tracker-b to see ${parent}`,
      timeoutMs: FLOW_TIMEOUT_MS,
    });
    killed.add('tracker-b');
    await victim.stop('SIGKILL');
    expect(victim.child.signalCode).toBe('SIGKILL');
    const restarted = await rig.addProcess('tracker-b-2', TRACKER);

    const children = [1, 2, 3].map((index) => `${parent}.subtask-${index}`);
    const done = async (tracker: ServiceProcess) => {
      const view = await task(tracker, parent);
      if (view?.status !== 'FINISH' || (await task(tracker, broken))?.status !== 'BREAK') return false;
      const childViews = await Promise.all(children.map((child) => task(tracker, child)));
      return childViews.every((child) => child?.status === 'FINISH');
    };
    await waitFor(() => done(steady), { description: 'tracker-a to see the flow done', timeoutMs: FLOW_TIMEOUT_MS });
    await waitFor(async () => (await ready(restarted)) && (await done(restarted)), {
      description: 'the restarted tracker ready and seeing the flow done',
      timeoutMs: FLOW_TIMEOUT_MS,
    });

    for (const taskId of [parent, ...children, broken]) {
      expect(await task(restarted, taskId), taskId).toEqual(await task(steady, taskId));
    }

    const parentView = (await task(steady, parent)) as TaskView;
    expect(parentView).toMatchObject({ status: 'FINISH', owner: null, parent_task_ids: [], children });
    expect(parentView.status_history.map((change) => change.status)).toEqual(['CREATE', 'EXECUTING', 'FINISH']);
    expect(parentView.counts.outcomes).toMatchObject({ HANDED_OFF: 1, PROCESSED: 2, COMPLETED: 1 });
    for (const child of children) {
      const view = (await task(steady, child)) as TaskView;
      expect(view, child).toMatchObject({ status: 'FINISH', owner: null, parent_task_ids: [parent], children: [] });
      // Two rounds of work, compile and review, each routed: 12 events, the last review completes it.
      expect(view.counts, child).toEqual({ events: 12, outcomes: { ROUTED: 6, HANDED_OFF: 5, COMPLETED: 1 } });
    }
    const brokenView = (await task(steady, broken)) as TaskView;
    expect(brokenView).toMatchObject({ status: 'BREAK', owner: null });
    expect(brokenView.timeline.at(-1)).toMatchObject({
      outcome: 'DEAD_LETTERED',
      agent_id: 'worker_agent',
      error_code: 'NO_HANDLER',
    });

    const finished = (await (await fetch(`${restarted.address}/v1/tasks?status=FINISH&limit=10`)).json()) as {
      tasks: { task_id: string; created_at: string }[];
    };
    expect(finished.tasks.map((each) => each.task_id).sort()).toEqual([parent, ...children].sort());
    // Newest first: each created at or before the one above it, the requirement (split first) last.
    const created = finished.tasks.map((each) => each.created_at);
    expect(created).toEqual([...created].sort().reverse());
    expect(finished.tasks.at(-1)?.task_id).toBe(parent);
    expect(await errorAnswer(`${restarted.address}/v1/tasks/no-such-task`)).toEqual({
      status: 404,
      body: { error: { code: 'TASK_NOT_FOUND', message: 'no event of task "no-such-task"', path: '/task_id' } },
    });
    expect(await errorAnswer(`${restarted.address}/v1/tasks?status=DONE`)).toMatchObject({
      status: 400,
      body: { error: { code: 'REQUEST_INVALID', path: '/querystring/status' } },
    });
    const metrics = await (await fetch(`${restarted.address}/metrics`)).text();
    expect(metrics).toContain('baton_tasks{status="FINISH",service="tracker"} 4');
    expect(metrics).toContain('baton_tasks{status="BREAK",service="tracker"} 1');

    // A tracker bounded to 5 timeline entries a task keeps each task's newest 5 and folds all 12.
    const bounded = await rig.addProcess('tracker-bounded', TRACKER, { BATON_TRACKER_MAX_EVENTS_PER_TASK: '5' });
    await waitFor(async () => (await ready(bounded)) && (await done(bounded)), {
      description: 'the bounded tracker ready and seeing the flow done',
      timeoutMs: FLOW_TIMEOUT_MS,
    });
    for (const child of children) {
      const full = (await task(steady, child)) as TaskView;
      const kept = (await task(bounded, child)) as TaskView;
      expect(kept.timeline, child).toEqual(full.timeline.slice(-5));
      expect({ ...kept, timeline: full.timeline }, child).toEqual(full);
    }
  }, 240_000);
});
