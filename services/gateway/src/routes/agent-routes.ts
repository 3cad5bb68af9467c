import type { FastifyInstance } from 'fastify';
import type { GatewayParts } from '../gateway-parts.js';
import { errorResponses } from '../http/route-schemas.js';

const MODES = { type: 'array', items: { type: 'string', enum: ['TEXT', 'IMAGE', 'AUDIO', 'EMBEDDED'] } } as const;

/** An agent's card as registered in `<prefix>.agents` (id, name, domain, skills, modes, version). */
const AGENT_CARD = {
  type: 'object',
  description: "The card of the agent's instance that heartbeated last; null when none is registered",
  properties: {
    agent_id: { type: 'string' },
    name: { type: 'string' },
    domain: { type: 'string' },
    description: { type: 'string' },
    skills: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, description: { type: 'string' } } },
    },
    input_modes: MODES,
    output_modes: MODES,
    version: { type: 'string' },
    instance_id: { type: 'string' },
    started_at: { type: 'string', format: 'date-time' },
    heartbeat_interval_ms: { type: 'integer' },
  },
} as const;

export function registerAgentRoutes(app: FastifyInstance, parts: GatewayParts): void {
  app.get(
    '/v1/agents',
    {
      config: { role: 'viewer' },
      schema: {
        tags: ['agents'],
        summary: 'Each agent service (and the router), its instances, whether it is up, its card and liveness',
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
                    recent_outcomes: {
                      type: 'object',
                      additionalProperties: { type: 'integer' },
                      description: 'The outcomes it reported over the last 15 minutes, by outcome',
                    },
                    control_lag: {
                      type: ['integer', 'null'],
                      description: 'The same for its control topic (negotiation messages); null for the router',
                    },
                    lag: {
                      type: ['integer', 'null'],
                      description:
                        "Offsets between its group's committed positions and the end of its inbox (the router: the inbound topic), commit markers included; null when unreadable",
                    },
                    instances: {
                      type: 'array',
                      items: {
                        type: 'object',
                        properties: {
                          instance_id: { type: 'string' },
                          host: { type: 'string' },
                          live: { type: 'boolean', description: 'Present when the instance has registered' },
                          last_heartbeat_at: { type: 'string', format: 'date-time' },
                        },
                      },
                    },
                    live: {
                      type: ['boolean', 'null'],
                      description: 'At least one registered instance is live; null when the agent never registered',
                    },
                    card: { ...AGENT_CARD, type: ['object', 'null'] },
                    registrations: {
                      type: 'array',
                      description: 'Every registration in the registry topic, live or not',
                      items: {
                        type: 'object',
                        properties: {
                          instance_id: { type: 'string' },
                          live: { type: 'boolean' },
                          last_heartbeat_at: { type: 'string', format: 'date-time' },
                          started_at: { type: 'string', format: 'date-time' },
                          version: { type: 'string' },
                        },
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
