import type { FastifyInstance } from 'fastify';
import { principalOf } from '../access/access-control.js';
import type { GatewayParts } from '../gateway-parts.js';
import { errorResponses, jobCommandParams, jobParams, replayJobBody } from '../http/route-schemas.js';
import type { ReplayJobCommand } from '../replay/replay-job-state.js';
import type { ReplayJobRequest } from '../replay/replay-jobs.js';

type ReplayJobBody = Omit<ReplayJobRequest, 'filter'> & Partial<Pick<ReplayJobRequest, 'filter'>>;

const job = { type: 'object', additionalProperties: true } as const;

export function registerReplayJobRoutes(app: FastifyInstance, parts: GatewayParts): void {
  app.post<{ Body: ReplayJobBody }>(
    '/v1/replays',
    {
      config: { role: 'operator' },
      schema: {
        tags: ['replays'],
        summary: 'Plan a bulk replay: the dry run, showing what would go where; start it to run it',
        body: replayJobBody,
        response: { 201: job, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const planned = parts.jobs.plan(
        { ...request.body, filter: request.body.filter ?? {} },
        principalOf(request).name,
      );
      return reply.code(201).send(planned);
    },
  );

  app.get(
    '/v1/replays',
    {
      config: { role: 'viewer' },
      schema: {
        tags: ['replays'],
        summary: "This gateway instance's replay jobs, newest first",
        response: { 200: { type: 'object', properties: { jobs: { type: 'array', items: job } } }, ...errorResponses() },
      },
    },
    async () => ({ jobs: parts.jobs.list() }),
  );

  app.get<{ Params: { job_id: string } }>(
    '/v1/replays/:job_id',
    {
      config: { role: 'viewer' },
      schema: {
        tags: ['replays'],
        summary: "A replay job's state and progress",
        params: jobParams,
        response: { 200: job, ...errorResponses(404) },
      },
    },
    async (request) => parts.jobs.get(request.params.job_id),
  );

  app.post<{ Params: { job_id: string; command: ReplayJobCommand } }>(
    '/v1/replays/:job_id/:command',
    {
      config: { role: 'operator' },
      schema: {
        tags: ['replays'],
        summary: 'Start, pause, resume or stop a replay job',
        params: jobCommandParams,
        response: { 200: job, ...errorResponses(404, 409) },
      },
    },
    async (request) => parts.jobs.command(request.params.job_id, request.params.command, principalOf(request).name),
  );
}
