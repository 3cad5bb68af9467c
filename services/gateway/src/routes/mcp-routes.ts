import type { FastifyInstance, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { operatorMcpServer, type GatewayCall } from '@baton/operator-mcp';

/** The headers a credential travels in: passed on to each tool's call, and nothing else. */
const CREDENTIAL_HEADERS = ['authorization', 'x-api-key'] as const;

/** The version the MCP server states at initialization. */
const MCP_SERVER_VERSION = '1.0.0';

/**
 * Each tool of the request's MCP server calls the API in this process with the request's own
 * credential, so each answers exactly what its route answers that credential: access control,
 * sender binding, the replay trust gate and the audit trail apply as they do over HTTP.
 */
function callsAs(app: FastifyInstance, request: FastifyRequest): GatewayCall {
  const credential: Record<string, string> = {};
  for (const name of CREDENTIAL_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') credential[name] = value;
  }
  return async (method, path, body) => {
    const answer = await app.inject({
      method,
      url: path,
      headers: body === undefined ? credential : { ...credential, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    const parsed: unknown = answer.body === '' ? {} : JSON.parse(answer.body);
    if (answer.statusCode >= 400) {
      throw (parsed as { error?: unknown }).error ?? { code: 'GATEWAY_ERROR', message: answer.body };
    }
    return parsed;
  };
}

/** What a stateless MCP endpoint answers to GET and DELETE: there is no session to stream or end. */
const NO_SESSIONS = {
  jsonrpc: '2.0',
  error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; POST each request' },
  id: null,
};

/**
 * `POST /mcp`: the operator's tools (@baton/operator-mcp) over MCP's Streamable HTTP transport,
 * stateless: a server per request, answering in JSON. The endpoint takes any credential the API
 * knows; each tool then needs the role its route needs.
 */
export function registerMcpRoutes(app: FastifyInstance): void {
  app.post(
    '/mcp',
    {
      config: { role: 'viewer' },
      schema: {
        tags: ['mcp'],
        summary:
          "Baton's operator actions as MCP tools (Streamable HTTP, stateless): find_tasks, read_task, overview, " +
          'list_dead_letters, show_dead_letter, replay_dead_letter (operator), publish_handoff (publisher)',
      },
    },
    async (request, reply) => {
      const server = operatorMcpServer(callsAs(app, request), MCP_SERVER_VERSION);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      // The transport writes the answer itself: Fastify must neither answer nor time it out.
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  );
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      config: { role: 'viewer' },
      schema: { hide: true },
      handler: async (_request, reply) => reply.code(405).send(NO_SESSIONS),
    });
  }
}
