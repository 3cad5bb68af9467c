import type { FastifyInstance } from 'fastify';
import { assertMaySendAs, fieldOf } from '../access/access-control.js';
import type { GatewayParts } from '../gateway-parts.js';
import { errorResponses } from '../http/route-schemas.js';

/** The body is checked by the negotiation submitter, which fills the handoff first and names every issue by path. */
const passThrough = () => () => true;

export function registerNegotiationRoutes(app: FastifyInstance, parts: GatewayParts): void {
  app.post(
    '/v1/negotiations',
    {
      config: { role: 'publisher' },
      validatorCompiler: passThrough,
      schema: {
        tags: ['handoffs'],
        summary: 'Open a negotiated handoff: ask one agent to take the handoff over',
        description:
          'handoff is a handoff message as POST /v1/handoffs takes it (message_id, timestamp, protocol_version and ' +
          'priority are filled when left out); its metadata.recipient_id names the one agent asked, which matches ' +
          'desired_agent_type against its id, name, domain and skills and accepts or rejects. The handoff is the ' +
          'context it receives on accepting: in the messages up to BATON_CONTEXT_INLINE_MAX_BYTES of JSON, else ' +
          'stored in the contexts topic and sent by reference. The staged context and the HandoffRequest are ' +
          'written in one transaction; the tracker then runs the sender’s side (timeouts, ' +
          'failure_handling_strategy) for the handoff’s sender_id. Answers 202 once every in-sync replica has them; ' +
          'follow the task at GET /v1/tasks/{task_id}. Posting the same handoff message_id again opens no second ' +
          'negotiation: the negotiation_id is derived from it.',
        body: {
          type: 'object',
          required: ['handoff', 'desired_agent_type', 'reason'],
          additionalProperties: false,
          properties: {
            handoff: { $ref: 'HandoffMessage#' },
            desired_agent_type: {
              type: 'string',
              minLength: 1,
              maxLength: 1000,
              description: 'The kind of agent wanted, e.g. NetworkExpert: matched case-insensitively',
            },
            reason: {
              type: 'string',
              minLength: 1,
              maxLength: 1000,
              description: 'Why the task is handed over: lacking skill, out of scope, load balancing…',
            },
          },
        },
        response: {
          202: {
            type: 'object',
            required: ['negotiation_id', 'task_id', 'receiver', 'context_mode'],
            properties: {
              negotiation_id: { type: 'string', description: 'The HandoffRequest’s message_id' },
              task_id: { type: 'string' },
              receiver: { type: 'string', description: 'The agent asked' },
              context_mode: { type: 'string', enum: ['by-value', 'by-reference'] },
            },
          },
          ...errorResponses(400, 503),
        },
      },
    },
    async (request, reply) => {
      const senderId = fieldOf(request.body, 'handoff', 'metadata', 'sender_id');
      assertMaySendAs(request, senderId, '/handoff/metadata/sender_id');
      return reply.code(202).send(await parts.negotiations.submit(request.body));
    },
  );
}
