import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { parseHandoff, type HandoffMessage } from '@baton/protocol';
import { createLogger, createServiceMetrics, HttpServer, type Handoff } from '@baton/runtime';
import { answerHandoff, type OperatorAnswer } from './operator-answer.js';
import { registerPendingRoutes } from './pending-routes.js';
import { pendingEntryOf, type PendingEntry } from './pending-task.js';
import { PendingTasks } from './pending-tasks.js';

const require = createRequire(import.meta.url);
const approval = parseHandoff(require('@baton/schemas/fixtures/approval-request.example.json') as HandoffMessage);
const entry = pendingEntryOf(approval, new Date(Date.UTC(2026, 10, 21, 9, 0, 1)));

let app: FastifyInstance;
afterEach(() => app.close());

function build(publish: (entry: PendingEntry, answer: OperatorAnswer) => Promise<Handoff>) {
  const tasks = new PendingTasks();
  tasks.apply(entry.task.task_id, entry);
  const answered: [PendingEntry, OperatorAnswer][] = [];
  // The chassis's HTTP server, so errors are answered as every service answers them.
  app = new HttpServer({
    port: 0,
    host: '127.0.0.1',
    isReady: () => true,
    metrics: createServiceMetrics({ service: 'human-agent-test' }),
    logger: createLogger('human-agent-test', 'silent'),
  }).app;
  registerPendingRoutes(app, {
    tasks,
    answer: async (pending, answer) => {
      answered.push([pending, answer]);
      return publish(pending, answer);
    },
  });
  return { tasks, answered };
}

const answerTo = (taskId: string, payload: unknown) =>
  app.inject({ method: 'POST', url: `/v1/pending/${taskId}/answer`, payload: payload as never });

describe('the pending API', () => {
  it('lists the pending tasks', async () => {
    build(async () => approval);
    const response = await app.inject({ method: 'GET', url: '/v1/pending' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ pending: [entry.task] });
  });

  it('answers a task once: publishes the answer and drops the task', async () => {
    const { tasks, answered } = build(async (pending, answer) =>
      answerHandoff(pending, answer, { newId: () => '22222222-2222-4222-8222-222222222222' }),
    );
    const response = await answerTo('task-refund-003', { decision: 'APPROVED', note: 'ok' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      task_id: 'task-refund-003',
      decision: 'APPROVED',
      message_id: '22222222-2222-4222-8222-222222222222',
    });
    expect(answered).toEqual([[entry, { decision: 'APPROVED', note: 'ok' }]]);
    expect(tasks.list()).toEqual([]);
    const again = await answerTo('task-refund-003', { decision: 'APPROVED' });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({
      error: { code: 'PENDING_TASK_NOT_FOUND', message: 'no pending task "task-refund-003"', path: '/taskId' },
    });
    expect(answered).toHaveLength(1);
  });

  it('refuses a bad answer, or a body that is not JSON, with 400 before looking for the task', async () => {
    const { tasks, answered } = build(async () => approval);
    const response = await answerTo('task-refund-003', { decision: 'MAYBE' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: { code: 'ANSWER_INVALID', message: 'decision must be "APPROVED" or "DENIED"' },
    });
    const garbled = await app.inject({
      method: 'POST',
      url: '/v1/pending/task-refund-003/answer',
      headers: { 'content-type': 'application/json' },
      payload: '{"decision":',
    });
    expect(garbled.statusCode).toBe(400);
    expect(garbled.json()).toMatchObject({ error: { code: 'REQUEST_INVALID' } });
    expect(answered).toEqual([]);
    expect(tasks.list()).toEqual([entry.task]);
  });

  it('keeps the task pending when the answer cannot be published', async () => {
    const { tasks } = build(async () => {
      throw new Error('broker down');
    });
    const response = await answerTo('task-refund-003', { decision: 'DENIED' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      error: { code: 'KAFKA_UNAVAILABLE', message: 'the answer could not be published: broker down' },
    });
    expect(response.headers['retry-after']).toBe('5');
    expect(tasks.list()).toEqual([entry.task]);
  });
});
