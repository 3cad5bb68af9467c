import { describe, expect, it } from 'vitest';
import { createLogger, createServiceMetrics, HttpServer } from '@baton/runtime';
import { TaskBook } from '@baton/task-tracking';
import { registerTaskGauges, registerTrackerRoutes } from './tracker-app.js';

function setup(ready = true) {
  const book = new TaskBook();
  const base = { time: '2026-11-22T10:00:00.000Z', message_id: 'm', agent_id: 'router', handoff_type: 'TASK_TRANSFER' };
  book.add({ ...base, event_id: 'e1', task_id: 'p', outcome: 'ROUTED', target: 'planner_agent' });
  book.add({ ...base, event_id: 'e2', task_id: 'p.1', outcome: 'COMPLETED', parent_task_ids: ['p'] });
  book.apply({
    kind: 'staged',
    value: {
      request_message_id: 'r1',
      task_id: 'n',
      sender_id: 'triage_agent',
      staged_at: base.time,
      context: { context_data: {} },
      terms: { desired_agent_type: 'NetworkExpert', reason: 'out of scope' },
    },
  });
  const registry = createServiceMetrics({ service: 'tracker' });
  registerTaskGauges(registry, book);
  const http = new HttpServer({
    port: 0,
    host: '127.0.0.1',
    isReady: () => ready,
    metrics: registry,
    logger: createLogger('tracker', 'silent'),
  });
  registerTrackerRoutes(http.app, book);
  return http.app;
}

describe('the tracker app', () => {
  it('answers a task with its status, owner, children, timeline and history', async () => {
    const response = await setup().inject({ method: 'GET', url: '/v1/tasks/p' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      task_id: 'p',
      status: 'EXECUTING',
      owner: 'planner_agent',
      parent_task_ids: [],
      children: ['p.1'],
      status_history: [
        { status: 'CREATE', at: '2026-11-22T10:00:00.000Z' },
        { status: 'EXECUTING', at: '2026-11-22T10:00:00.000Z' },
      ],
    });
    expect(response.json().timeline).toHaveLength(1);
  });

  it('answers 404 TASK_NOT_FOUND in the error shape', async () => {
    const response = await setup().inject({ method: 'GET', url: '/v1/tasks/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: { code: 'TASK_NOT_FOUND', message: 'no event of task "nope"', path: '/task_id' },
    });
  });

  it('lists tasks by status, and refuses an unknown status', async () => {
    const app = setup();
    const finished = await app.inject({ method: 'GET', url: '/v1/tasks?status=FINISH&limit=5' });
    expect(finished.json().tasks.map((task: { task_id: string }) => task.task_id)).toEqual(['p.1']);
    expect((await app.inject({ method: 'GET', url: '/v1/tasks' })).json().tasks).toHaveLength(3);
    const bad = await app.inject({ method: 'GET', url: '/v1/tasks?status=DONE' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('REQUEST_INVALID');
  });

  it('serves baton_tasks{status} and readiness', async () => {
    const metrics = await setup().inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toContain('baton_tasks{status="FINISH",service="tracker"} 1');
    expect(metrics.body).toContain('baton_tasks{status="WAITING",service="tracker"} 1');
    expect(metrics.body).toContain('baton_tasks{status="FAILED",service="tracker"} 0');
    expect(metrics.body).toContain('baton_negotiations{outcome="OPEN",service="tracker"} 1');
    expect(metrics.body).toContain('baton_negotiations{outcome="COMPLETED",service="tracker"} 0');
    expect((await setup(false).inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
  });
});
