import type { FastifyInstance } from 'fastify';
import { BatonError } from '@baton/errors';
import type { GatewayParts } from '../gateway-parts.js';
import { errorResponses, taskParams } from '../http/route-schemas.js';
import { taskAnswerSchema } from '../http/task-answer-schema.js';
import { taskAnswer } from '../timeline/task-timelines.js';

export function registerTaskRoutes(app: FastifyInstance, parts: GatewayParts): void {
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
      return taskAnswer(task);
    },
  );
}
