import type { FastifyInstance } from 'fastify';
import { BatonError } from '@baton/errors';
import { Gauge, METRIC_NAMES, type Registry } from '@baton/runtime';
import type { TaskListParameters } from '@baton/gateway-api';
import {
  TASK_STATUSES,
  taskListAnswer,
  taskListAnswerSchema,
  taskListQuery,
  type TaskBook,
} from '@baton/task-tracking';

/** The list's answer, and how many tasks are in each status. */
const trackerTaskListSchema = {
  ...taskListAnswerSchema,
  properties: {
    ...taskListAnswerSchema.properties,
    counts: {
      type: 'object',
      properties: Object.fromEntries(TASK_STATUSES.map((status) => [status, { type: 'integer' }])),
    },
  },
};

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

  // The gateway's task list, as it serves it, with the status counts beside it.
  app.get<{ Querystring: TaskListParameters & { limit: number } }>(
    '/v1/tasks',
    { schema: { querystring: taskListQuery, response: { 200: trackerTaskListSchema } } },
    async (request) => ({ ...taskListAnswer(book, request.query), counts: book.statusCounts() }),
  );
}
