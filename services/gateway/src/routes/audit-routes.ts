import type { FastifyInstance } from 'fastify';
import type { GatewayParts } from '../gateway-parts.js';
import { auditQuery, errorResponses } from '../http/route-schemas.js';

export function registerAuditRoutes(app: FastifyInstance, parts: GatewayParts): void {
  app.get<{ Querystring: { limit: number } }>(
    '/v1/audit',
    {
      config: { role: 'viewer' },
      schema: {
        tags: ['audit'],
        summary: 'The audit trail of replays: who, when, why and what; newest first',
        querystring: auditQuery,
        response: {
          200: {
            type: 'object',
            properties: { entries: { type: 'array', items: { type: 'object', additionalProperties: true } } },
          },
          ...errorResponses(),
        },
      },
    },
    async (request) => ({ entries: parts.audit.newest(request.query.limit) }),
  );
}
