import type { FastifyError, FastifyInstance } from 'fastify';
import { BatonError, isBatonError } from '@baton/errors';
import { buildHealthApp, Gauge, METRIC_NAMES, type Registry } from '@baton/runtime';
import { TASK_STATUSES, type TaskBook, type TaskStatus } from '@baton/task-tracking';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1_000;

export interface TrackerAppOptions {
  book: TaskBook;
  registry: Registry;
  isReady(): boolean;
}

/**
 * `baton_tasks{status}` and `baton_negotiations{outcome}`: the book's tasks in each status and its
 * negotiated handoffs by outcome, read on scrape.
 */
export function registerTaskGauges(registry: Registry, book: TaskBook): void {
  new Gauge({
    name: METRIC_NAMES.tasks,
    help: "Tasks in each TaskStatus (seed 004's CREATE, EXECUTING, WAITING, BREAK, FINISH; then FAILED, EXPIRED), as the tracker folded them",
    labelNames: ['status'],
    registers: [registry],
    collect() {
      for (const [status, count] of Object.entries(book.statusCounts())) this.set({ status }, count);
    },
  });
  new Gauge({
    name: METRIC_NAMES.negotiations,
    help: 'Negotiated handoffs (seed 001) by outcome: OPEN, COMPLETED, FAILED, EXPIRED, as the tracker folded them',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      for (const [outcome, count] of Object.entries(book.negotiationCounts())) this.set({ outcome }, count);
    },
  });
}

/**
 * The tracker's HTTP API: /healthz, /readyz, /metrics, and the tasks. No credentials: an internal
 * service, reachable from inside the installation only. Errors are `{error: {code, message}}`.
 */
export function buildTrackerApp(options: TrackerAppOptions): FastifyInstance {
  const app = buildHealthApp({ isReady: options.isReady, registry: options.registry });
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (isBatonError(error)) {
      return reply.code(error.code === 'TASK_NOT_FOUND' ? 404 : 400).send({
        error: { code: error.code, message: error.message, ...(error.path === undefined ? {} : { path: error.path }) },
      });
    }
    if (error.validation || (error.statusCode !== undefined && error.statusCode < 500)) {
      return reply.code(400).send({ error: { code: 'REQUEST_INVALID', message: error.message } });
    }
    return reply.code(500).send({ error: { code: 'INTERNAL', message: 'unexpected error; see the tracker log' } });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ error: { code: 'ROUTE_NOT_FOUND', message: `no route ${request.method} ${request.url}` } }),
  );

  app.get<{ Params: { task_id: string } }>('/v1/tasks/:task_id', async (request) => {
    const task = options.book.get(request.params.task_id);
    if (task === undefined) {
      throw new BatonError('TASK_NOT_FOUND', `no event of task "${request.params.task_id}"`, { path: '/task_id' });
    }
    return task;
  });

  app.get<{ Querystring: { status?: string; limit?: number } }>(
    '/v1/tasks',
    {
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            status: { type: 'string', enum: [...TASK_STATUSES] },
            limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
          },
        },
      },
    },
    async (request) => {
      const status = request.query.status as TaskStatus | undefined;
      const tasks = options.book.list({
        ...(status === undefined ? {} : { status }),
        limit: request.query.limit ?? DEFAULT_LIMIT,
      });
      return { tasks, counts: options.book.statusCounts() };
    },
  );
  return app;
}
