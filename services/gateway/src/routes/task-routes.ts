import type { FastifyInstance } from 'fastify';
import { BatonError } from '@baton/errors';
import type { TaskListAnswer, TaskListParameters } from '@baton/gateway-api';
import { taskListAnswer, taskListAnswerSchema, taskListQuery } from '@baton/task-tracking';
import type { GatewayParts } from '../gateway-parts.js';
import { errorResponses, taskParams } from '../http/route-schemas.js';
import { taskAnswerSchema } from '../http/task-answer-schema.js';
import { taskAnswer } from '../timeline/task-timelines.js';
import { streamPositionOf } from '../timeline/task-stream.js';

export function registerTaskRoutes(app: FastifyInstance, parts: GatewayParts): void {
  app.get<{ Querystring: TaskListParameters & { limit: number } }>(
    '/v1/tasks',
    {
      config: { role: 'viewer' },
      schema: {
        tags: ['tasks'],
        summary:
          'Tasks newest first, filtered by status (STUCK included), agent, handoff_type, issue_category, error code, ' +
          'time and text over ids, one page at a time: a cursor stays correct while events arrive',
        querystring: taskListQuery,
        response: { 200: taskListAnswerSchema, ...errorResponses(400) },
      },
    },
    async (request): Promise<TaskListAnswer> => taskListAnswer(parts.tasks, request.query),
  );

  app.get<{ Params: { task_id: string } }>(
    '/v1/tasks/:task_id',
    {
      config: { role: 'viewer' },
      schema: {
        tags: ['tasks'],
        summary:
          "A task's status, owner, parents, children, timeline across agents and negotiated handoffs, from the events topic",
        params: taskParams,
        response: {
          200: taskAnswerSchema,
          ...errorResponses(404),
        },
      },
    },
    async (request) => {
      const task = parts.tasks.get(request.params.task_id);
      if (!task) {
        throw new BatonError('TASK_NOT_FOUND', `no event of task "${request.params.task_id}"`, { path: '/task_id' });
      }
      return taskAnswer(task, parts.replies.of(request.params.task_id));
    },
  );

  app.get<{ Params: { task_id: string }; Headers: { 'last-event-id'?: string } }>(
    '/v1/tasks/:task_id/events',
    {
      config: { role: 'viewer' },
      schema: {
        tags: ['tasks'],
        summary:
          "A task's timeline steps and replies to the user as Server-Sent Events, as they happen: what is known first, " +
          'then each new one. Every event id is `<steps>.<replies>` read so far; a client that reconnects with ' +
          '`Last-Event-ID` resumes after it, on any gateway, without losing or repeating one. A task not seen yet ' +
          'is followed from its first event.',
        params: taskParams,
        produces: ['text/event-stream'],
        response: { ...errorResponses() },
      },
    },
    (request, reply) => {
      // The stream outlives the handler: Fastify must neither answer nor time it out.
      reply.hijack();
      parts.taskStreams.serve(request.params.task_id, streamPositionOf(request.headers['last-event-id']), reply.raw);
    },
  );
}
