import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { loadHandoffSchemas, type JsonSchema } from '@baton/protocol';
import { errorSchema } from './route-schemas.js';

/** A schema file made fit to sit inside the OpenAPI document, under a name of its own. */
function component(schema: JsonSchema, id: string, description?: string): JsonSchema {
  // The file's own $schema and $id would clash with the document's; the component gets a local id.
  const rest = Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema' && key !== '$id'));
  return { ...rest, $id: id, ...(description === undefined ? {} : { description }) };
}

/**
 * The OpenAPI document is generated from the routes' own schemas, so what it shows is what the
 * routes check. The handoff schemas come from schemas/json, the files every validator reads.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  const schemas = loadHandoffSchemas();
  app.addSchema(errorSchema);
  app.addSchema(
    component(
      schemas.envelope,
      'HandoffMessage',
      'A handoff message (metadata, context, payload, instructions). payload.data follows the data schema of its handoff_type; ' +
        'metadata.message_id, timestamp, protocol_version and priority are filled when left out.',
    ),
  );
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Baton gateway',
        version: '1.0.0',
        description:
          'Publish handoffs, open negotiated handoffs, follow tasks, list agents, inspect and replay dead letters.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
      security: [{ bearer: [] }, { apiKey: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `def-${index}`) },
  });
}

export function registerOpenApiRoute(app: FastifyInstance): void {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
