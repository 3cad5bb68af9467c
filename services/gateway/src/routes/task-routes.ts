import type { FastifyInstance } from 'fastify';
import { BatonError } from '@baton/errors';
import type { GatewayParts } from '../gateway-parts.js';
import { errorResponses, taskParams } from '../http/route-schemas.js';

const timelineEvent = {
  type: 'object',
  required: ['time', 'message_id', 'handoff_type', 'agent_id', 'outcome'],
  properties: {
    time: { type: 'string', format: 'date-time' },
    message_id: { type: 'string' },
    handoff_type: { type: 'string' },
    issue_category: { type: 'string' },
    sender: { type: 'string' },
    receiver: { type: 'string' },
    agent_id: { type: 'string', description: 'The service that finished with the handoff' },
    outcome: { type: 'string' },
    target: { type: 'string' },
    detail: { type: 'string' },
    error_code: { type: 'string' },
  },
} as const;

export function registerTaskRoutes(app: FastifyInstance, parts: GatewayParts): void {
  app.get<{ Params: { task_id: string } }>(
    '/v1/tasks/:task_id',
    {
      config: { role: 'viewer' },
      schema: {
        tags: ['tasks'],
        summary: "A task's timeline across agents, from the events topic, in order",
        params: taskParams,
        response: {
          200: {
            type: 'object',
            required: ['task_id', 'events'],
            properties: { task_id: { type: 'string' }, events: { type: 'array', items: timelineEvent } },
          },
          ...errorResponses(404),
        },
      },
    },
    async (request) => {
      const events = parts.timelines.get(request.params.task_id);
      if (!events) {
        throw new BatonError('TASK_NOT_FOUND', `no event of task "${request.params.task_id}"`, { path: '/task_id' });
      }
      return { task_id: request.params.task_id, events };
    },
  );
}
