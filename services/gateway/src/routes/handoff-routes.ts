import type { FastifyInstance } from 'fastify';
import { assertMaySendAs, fieldOf } from '../access/access-control.js';
import type { GatewayParts } from '../gateway-parts.js';
import { errorResponses } from '../http/route-schemas.js';

/** Fastify leaves the body to the protocol's own validation, which names every issue by path. */
const passThrough = () => () => true;

export function registerHandoffRoutes(app: FastifyInstance, parts: GatewayParts): void {
  app.post(
    '/v1/handoffs',
    {
      config: { role: 'publisher' },
      validatorCompiler: passThrough,
      schema: {
        tags: ['handoffs'],
        summary: 'Publish a handoff to the inbound topic',
        description:
          'The body is a handoff message (schemas/json/base_handoff_message.schema.json; payload.data by the ' +
          'data schema of its handoff_type). metadata.message_id, timestamp, protocol_version and priority may be ' +
          'left out: the gateway fills them. Answers 202 only once every in-sync replica has the record. ' +
          'Publishing the same message_id again is safe: consumers process a message_id once. A W3C `traceparent` ' +
          "request header makes the handoff continue the caller's trace; without one, the handoff starts a trace.",
        body: { $ref: 'HandoffMessage#' },
        response: {
          202: {
            type: 'object',
            required: ['message_id', 'task_id', 'topic', 'partition', 'offset'],
            properties: {
              message_id: { type: 'string' },
              task_id: { type: 'string' },
              topic: { type: 'string' },
              partition: { type: 'integer' },
              offset: { type: 'string' },
            },
          },
          ...errorResponses(400, 503),
        },
      },
    },
    async (request, reply) => {
      assertMaySendAs(request, fieldOf(request.body, 'metadata', 'sender_id'), '/metadata/sender_id');
      const { traceparent } = request.headers;
      return reply
        .code(202)
        .send(await parts.submitter.submit(request.body, typeof traceparent === 'string' ? traceparent : undefined));
    },
  );
}
