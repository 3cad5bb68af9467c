import Fastify, { type FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';

export interface HealthAppOptions {
  /** Ready means: connected, joined the consumer group, able to take work. */
  isReady(): boolean;
  registry: Registry;
}

/**
 * The HTTP face every service has: /healthz (the process answers: liveness), /readyz (it can take
 * work: readiness) and /metrics (Prometheus). Built without listening, so tests use inject().
 */
export function buildHealthApp(options: HealthAppOptions): FastifyInstance {
  // Services' onReady hooks do Kafka work (creating a topic, reading a compacted one to its end), which
  // can outlast Fastify's 10 s default on a busy machine; the service's start has no other deadline.
  const app = Fastify({ logger: false, pluginTimeout: 120_000 });
  registerHealthRoutes(app, options);
  return app;
}

/** The same three routes on an app a service builds itself. */
export function registerHealthRoutes(app: FastifyInstance, options: HealthAppOptions): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const ready = options.isReady();
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready' });
  });
  app.get('/metrics', async (_request, reply) =>
    reply.header('content-type', options.registry.contentType).send(await options.registry.metrics()),
  );
}

/** Where an app listens, as a URL: services log it in `service.started`. */
export function listeningAddress(app: FastifyInstance): string {
  const address = app.server.address();
  return typeof address === 'object' && address !== null
    ? `http://${address.address}:${address.port}`
    : String(address);
}
