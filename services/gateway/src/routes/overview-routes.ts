import type { FastifyInstance } from 'fastify';
import type { GatewayParts } from '../gateway-parts.js';
import { errorResponses } from '../http/route-schemas.js';
import { attentionOf } from '../overview/attention.js';

const free = { type: 'object', additionalProperties: true } as const;

export function registerOverviewRoutes(app: FastifyInstance, parts: GatewayParts): void {
  app.get(
    '/v1/overview',
    {
      config: { role: 'viewer' },
      schema: {
        tags: ['overview'],
        summary:
          'The whole system at a glance: what needs attention, the agents (up, live, lag), dead letters by code and ' +
          'topic, and handoff outcomes per minute over the last minutes',
        response: {
          200: {
            type: 'object',
            properties: {
              generated_at: { type: 'string', format: 'date-time' },
              attention: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: { kind: { type: 'string' }, subject: { type: 'string' }, detail: { type: 'string' } },
                },
              },
              agents: { type: 'array', items: free },
              dead_letters: free,
              outcomes: {
                type: 'object',
                properties: {
                  window_minutes: { type: 'integer' },
                  per_minute: {
                    type: 'array',
                    items: {
                      type: 'object',
                      properties: {
                        minute: { type: 'string', format: 'date-time' },
                        outcomes: { type: 'object', additionalProperties: { type: 'integer' } },
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
    async () => {
      const agents = await parts.listAgents();
      parts.lagTrend.observe(agents, Date.now());
      const deadLetters = parts.deadLetters.stats();
      return {
        generated_at: new Date().toISOString(),
        attention: attentionOf(agents, deadLetters, parts.tasks.stuckByOwner(), parts.lagTrend.growing()),
        agents,
        dead_letters: deadLetters,
        outcomes: { window_minutes: parts.outcomeRates.windowMinutes, per_minute: parts.outcomeRates.window() },
      };
    },
  );
}
