import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { HttpServer, type HttpTls, type Logger, type Registry } from '@baton/runtime';
import { installAccessControl } from '../access/access-control.js';
import type { ApiKey } from '../access/api-keys.js';
import type { JwtSettings } from '../access/jwt.js';
import type { GatewayParts } from '../gateway-parts.js';
import { registerAgentRoutes } from '../routes/agent-routes.js';
import { registerAuditRoutes } from '../routes/audit-routes.js';
import { registerDeadLetterRoutes } from '../routes/dead-letter-routes.js';
import { registerHandoffRoutes } from '../routes/handoff-routes.js';
import { registerMcpRoutes } from '../routes/mcp-routes.js';
import { registerNegotiationRoutes } from '../routes/negotiation-routes.js';
import { registerOverviewRoutes } from '../routes/overview-routes.js';
import { registerReplayJobRoutes } from '../routes/replay-job-routes.js';
import { registerTaskRoutes } from '../routes/task-routes.js';
import { consolePageScript } from './console-page.js';
import { registerOpenApi, registerOpenApiRoute } from './openapi.js';

const UI_ROOT = fileURLToPath(new URL('../../ui/', import.meta.url));
const PAGE_CSP = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'";

export interface GatewayHttpOptions {
  port: number;
  host: string;
  /** Serve HTTPS with this certificate and key (BATON_HTTP_TLS_*); unset: plain HTTP. */
  tls?: HttpTls | undefined;
  parts: GatewayParts;
  apiKeys: readonly ApiKey[];
  /** Bearer JWTs of an OAuth2 issuer besides the API keys; undefined: API keys only. */
  jwt?: JwtSettings | undefined;
  logger: Logger;
  metrics: Registry;
  /** Told of every answered API request. */
  metricsOfRequest(route: string, method: string, status: number): void;
  isReady(): boolean;
}

/**
 * The gateway's HTTP server with its API, page and documents, built without listening so tests can
 * inject requests. Request lines are logged by the gateway itself, naming the credential, never its token.
 */
export async function buildGatewayHttp(options: GatewayHttpOptions): Promise<HttpServer> {
  const http = new HttpServer({
    port: options.port,
    host: options.host,
    tls: options.tls,
    isReady: options.isReady,
    metrics: options.metrics,
    logger: options.logger,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array' } },
  });
  const { app } = http;
  installAccessControl(app, options.apiKeys, options.jwt);
  await registerOpenApi(app);
  registerOpenApiRoute(app);
  const pageScript = await consolePageScript();
  await app.register(fastifyStatic, {
    root: UI_ROOT,
    prefix: '/ui/',
    // The TypeScript sources are served bundled, as app.js, never as they are.
    allowedPath: (path) => !path.startsWith('/src/'),
    // The page loads nothing but its own files, so nothing else may run in it.
    setHeaders: (response) => response.setHeader('content-security-policy', PAGE_CSP),
  });
  app.get('/ui/app.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('content-security-policy', PAGE_CSP)
      .header('cache-control', 'no-cache')
      .send(pageScript),
  );
  for (const path of ['/', '/ui']) {
    app.get(path, { schema: { hide: true } }, async (_request, reply) => reply.redirect('/ui/', 301));
  }
  registerHandoffRoutes(app, options.parts);
  registerNegotiationRoutes(app, options.parts);
  registerTaskRoutes(app, options.parts);
  registerOverviewRoutes(app, options.parts);
  registerAgentRoutes(app, options.parts);
  registerDeadLetterRoutes(app, options.parts);
  registerReplayJobRoutes(app, options.parts);
  registerAuditRoutes(app, options.parts);
  registerMcpRoutes(app);
  app.addHook('onResponse', async (request, reply) => {
    if (request.routeOptions.config.role === undefined) return;
    options.metricsOfRequest(request.routeOptions.url ?? 'unknown', request.method, reply.statusCode);
    request.log.info(
      {
        event: 'http.request',
        method: request.method,
        route: request.routeOptions.url,
        status: reply.statusCode,
        principal: request.principal?.name,
        duration_ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
  });
  return http;
}
