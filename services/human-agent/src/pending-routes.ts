import type { FastifyInstance } from 'fastify';
import type { Handoff } from '@baton/runtime';
import { parseOperatorAnswer, type OperatorAnswer } from './operator-answer.js';
import type { PendingEntry } from './pending-task.js';
import type { PendingTasks } from './pending-tasks.js';

/** The `code` of this API's error answers (`{ code, message }`). */
export const PENDING_API_ERRORS = {
  /** 404: no such task is pending (never was, or already answered). */
  notFound: 'PENDING_TASK_NOT_FOUND',
  /** 400 (or 415, 413): the answer's body is not `{ decision, note? }`. */
  invalid: 'ANSWER_INVALID',
  /** 503: the answer could not be published; the task stays pending. */
  unavailable: 'KAFKA_UNAVAILABLE',
  /** 500: a fault of the agent itself. */
  internal: 'INTERNAL_ERROR',
} as const;

export interface PendingDesk {
  tasks: PendingTasks;
  /** Publishes the answer and removes the task from the pending topic; resolves with the answer sent. */
  answer(entry: PendingEntry, answer: OperatorAnswer): Promise<Handoff>;
}

/**
 * The operator's HTTP API: `GET /v1/pending` lists the pending tasks, oldest first;
 * `POST /v1/pending/:taskId/answer` answers one.
 */
export function registerPendingRoutes(app: FastifyInstance, desk: PendingDesk): void {
  void app.register(
    async (scope) => {
      // Fastify's own refusals (bad JSON, wrong content type) answer in this API's error shape too.
      scope.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
        const status = error.statusCode ?? 500;
        const code = status < 500 ? PENDING_API_ERRORS.invalid : PENDING_API_ERRORS.internal;
        return reply.code(status).send({ code, message: error.message });
      });
      scope.get('/', async () => ({ pending: desk.tasks.list() }));
      scope.post<{ Params: { taskId: string } }>('/:taskId/answer', async (request, reply) => {
        const parsed = parseOperatorAnswer(request.body);
        if (!parsed.ok) return reply.code(400).send({ code: PENDING_API_ERRORS.invalid, message: parsed.message });
        const { taskId } = request.params;
        const entry = desk.tasks.take(taskId);
        if (entry === undefined) {
          return reply
            .code(404)
            .send({ code: PENDING_API_ERRORS.notFound, message: `no pending task ${JSON.stringify(taskId)}` });
        }
        let sent: Handoff;
        try {
          sent = await desk.answer(entry, parsed.answer);
        } catch (error) {
          desk.tasks.restore(entry);
          const message = `the answer could not be published: ${(error as Error).message}`;
          return reply.code(503).send({ code: PENDING_API_ERRORS.unavailable, message });
        }
        return { task_id: taskId, decision: parsed.answer.decision, message_id: sent.metadata.message_id };
      });
    },
    { prefix: '/v1/pending' },
  );
}
