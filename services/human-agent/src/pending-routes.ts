import type { FastifyInstance } from 'fastify';
import { BatonError } from '@baton/errors';
import type { Handoff } from '@baton/runtime';
import { parseOperatorAnswer, type OperatorAnswer } from './operator-answer.js';
import type { PendingEntry } from './pending-task.js';
import type { PendingTasks } from './pending-tasks.js';

export interface PendingDesk {
  tasks: PendingTasks;
  /** Publishes the answer and removes the task from the pending topic; resolves with the answer sent. */
  answer(entry: PendingEntry, answer: OperatorAnswer): Promise<Handoff>;
}

/**
 * The operator's HTTP API: `GET /v1/pending` lists the pending tasks, oldest first;
 * `POST /v1/pending/:taskId/answer` answers one. Errors take the shape and status of every Baton
 * service: 400 ANSWER_INVALID for a malformed answer, 404 PENDING_TASK_NOT_FOUND for a task that is
 * not pending (never was, or already answered), 503 KAFKA_UNAVAILABLE when the answer could not be
 * published (the task stays pending).
 */
export function registerPendingRoutes(app: FastifyInstance, desk: PendingDesk): void {
  app.get('/v1/pending', async () => ({ pending: desk.tasks.list() }));
  app.post<{ Params: { taskId: string } }>('/v1/pending/:taskId/answer', async (request) => {
    const parsed = parseOperatorAnswer(request.body);
    if (!parsed.ok) throw new BatonError('ANSWER_INVALID', parsed.message);
    const { taskId } = request.params;
    const entry = desk.tasks.take(taskId);
    if (entry === undefined) {
      throw new BatonError('PENDING_TASK_NOT_FOUND', `no pending task ${JSON.stringify(taskId)}`, { path: '/taskId' });
    }
    let sent: Handoff;
    try {
      sent = await desk.answer(entry, parsed.answer);
    } catch (cause) {
      desk.tasks.restore(entry);
      throw new BatonError('KAFKA_UNAVAILABLE', `the answer could not be published: ${(cause as Error).message}`, {
        cause,
      });
    }
    return { task_id: taskId, decision: parsed.answer.decision, message_id: sent.metadata.message_id };
  });
}
