import type { FastifyInstance } from 'fastify';
import type { GatewayParts } from '../gateway-parts.js';
import { errorResponses } from '../http/route-schemas.js';

export function registerAgentRoutes(app: FastifyInstance, parts: GatewayParts): void {
  app.get(
    '/v1/agents',
    {
      config: { role: 'viewer' },
      schema: {
        tags: ['agents'],
        summary: 'Each agent service (and the router), its instances, and whether it is up',
        response: {
          200: {
            type: 'object',
            properties: {
              agents: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    agent_id: { type: 'string' },
                    group_id: { type: 'string' },
                    up: { type: 'boolean' },
                    state: { type: 'string' },
                    instances: {
                      type: 'array',
                      items: {
                        type: 'object',
                        properties: { instance_id: { type: 'string' }, host: { type: 'string' } },
                      },
                    },
                  },
                },
              },
            },
          },
          ...errorResponses(503),
        },
      },
    },
    async () => ({ agents: await parts.listAgents() }),
  );
}
