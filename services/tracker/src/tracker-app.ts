import type { FastifyInstance } from 'fastify';
import { BatonError } from '@baton/errors';
import { Gauge, METRIC_NAMES, type Registry } from '@baton/runtime';
import { TASK_STATUSES, type TaskBook, type TaskStatus } from '@baton/task-tracking';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1_000;

/**
 * `baton_tasks{status}` and `baton_negotiations{outcome}`: the book's tasks in each status and its
 * negotiated handoffs by outcome, read on scrape.
 */
export function registerTaskGauges(registry: Registry, book: TaskBook): void {
  new Gauge({
    name: METRIC_NAMES.tasks,
    help: 'Tasks in each status (CREATE, EXECUTING, WAITING, BREAK, FINISH; then FAILED, EXPIRED), as the tracker folded them',
    labelNames: ['status'],
    registers: [registry],
    collect() {
      for (const [status, count] of Object.entries(book.statusCounts())) this.set({ status }, count);
    },
  });
  new Gauge({
    name: METRIC_NAMES.negotiations,
    help: 'Negotiated handoffs by outcome: OPEN, COMPLETED, FAILED, EXPIRED, as the tracker folded them',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      for (const [outcome, count] of Object.entries(book.negotiationCounts())) this.set({ outcome }, count);
    },
  });
}

/**
 * The tracker's tasks, beside the chassis's /healthz, /readyz and /metrics. No credentials: an
 * internal service, reachable from inside the installation only.
 */
export function registerTrackerRoutes(app: FastifyInstance, book: TaskBook): void {
  app.get<{ Params: { task_id: string } }>('/v1/tasks/:task_id', async (request) => {
    const task = book.get(request.params.task_id);
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
      const tasks = book.list({
        ...(status === undefined ? {} : { status }),
        limit: request.query.limit ?? DEFAULT_LIMIT,
      });
      return { tasks, counts: book.statusCounts() };
    },
  );
}
