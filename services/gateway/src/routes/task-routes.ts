import type { FastifyInstance } from 'fastify';
import { BatonError } from '@baton/errors';
import { TASK_STATUSES } from '@baton/task-tracking';
import type { GatewayParts } from '../gateway-parts.js';
import { errorResponses, taskParams } from '../http/route-schemas.js';
import { taskAnswer } from '../timeline/task-timelines.js';

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
        summary:
          "A task's status (seed 004's TaskStatus), owner, parents, children and timeline across agents, from the events topic",
        params: taskParams,
        response: {
          200: {
            type: 'object',
            required: ['task_id', 'status', 'owner', 'parent_task_ids', 'children', 'events'],
            properties: {
              task_id: { type: 'string' },
              status: { type: 'string', enum: [...TASK_STATUSES] },
              owner: {
                type: ['string', 'null'],
                description:
                  'The agent(s) holding the task (comma-separated as routed); null when finished or dead-lettered',
              },
              parent_task_ids: { type: 'array', items: { type: 'string' } },
              children: {
                type: 'array',
                items: { type: 'string' },
                description: 'Tasks whose events name this one in parent_task_ids, by task_id',
              },
              events: { type: 'array', items: timelineEvent },
            },
          },
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
