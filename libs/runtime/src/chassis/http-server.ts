import { isUtf8 } from 'node:buffer';
import { BatonError } from '@baton/errors';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify';
import type { Registry } from 'prom-client';
import type { Logger } from '../logger.js';
import type { Component } from './component.js';
import { installErrorReplies } from './error-replies.js';

/** PEM certificate chain and private key the server answers HTTPS with (Fastify's `https` option). */
export interface HttpTls {
  cert: string;
  key: string;
  /** Decrypts an encrypted key. */
  passphrase?: string | undefined;
}

export interface HttpServerOptions {
  port: number;
  host: string;
  /** The service's readiness, answered by /readyz: see Service.isReady. */
  isReady(): boolean;
  /** What /metrics serves. */
  metrics: Registry;
  /** Routes log through `request.log`, bound to it. */
  logger: Logger;
  /** How route schemas validate requests (Fastify's defaults when unset). */
  ajv?: FastifyServerOptions['ajv'];
  /** Serve HTTPS with this certificate and key; unset: plain HTTP. */
  tls?: HttpTls | undefined;
  /** How long a close waits for the requests in progress before it closes their connections (5 s). */
  closeGraceMs?: number;
}

/**
 * A close waits this long for requests in progress: longer than an API call takes (a publish
 * answers within BATON_PUBLISH_TIMEOUT_MS's default of 10 s only when Kafka is down, and then a
 * 503), far shorter than a stop may take (BATON_SHUTDOWN_TIMEOUT_MS).
 */
const DEFAULT_CLOSE_GRACE_MS = 5_000;

/** While a close waits, how often the connections whose requests have ended are closed. */
const IDLE_CHECK_MS = 50;

/**
 * The HTTP face of every service, as a component: /healthz (the process answers: liveness),
 * /readyz (the service can take work: readiness), /metrics (Prometheus) and the one error shape
 * (see installErrorReplies), over HTTPS when given `tls`. A service adds its routes to `app`
 * before starting; tests use `app.inject()` without listening.
 */
export class HttpServer implements Component {
  readonly name = 'http';
  readonly app: FastifyInstance;

  constructor(private readonly options: HttpServerOptions) {
    const serverOptions = {
      loggerInstance: options.logger as FastifyBaseLogger,
      // Health probes and scrapes would fill the log; a service logs the requests that matter itself.
      logController: new LogController({ disableRequestLogging: true }),
      ...(options.ajv === undefined ? {} : { ajv: options.ajv }),
    };
    const { tls } = options;
    // An HTTPS instance differs from an HTTP one only in its raw server's type, which no route sees.
    this.app =
      tls === undefined
        ? Fastify(serverOptions)
        : (Fastify({
            ...serverOptions,
            https: {
              cert: tls.cert,
              key: tls.key,
              ...(tls.passphrase === undefined ? {} : { passphrase: tls.passphrase }),
            },
          }) as unknown as FastifyInstance);
    installErrorReplies(this.app, options.logger);
    refuseBodiesNotUtf8(this.app);
    this.app.get('/healthz', async () => ({ status: 'ok' }));
    this.app.get('/readyz', async (_request, reply) => {
      const ready = options.isReady();
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready' });
    });
    this.app.get('/metrics', async (_request, reply) =>
      reply.header('content-type', options.metrics.contentType).send(await options.metrics.metrics()),
    );
  }

  async start(): Promise<void> {
    await this.app.listen({ port: this.options.port, host: this.options.host });
  }

  /**
   * Stops listening and waits for the requests in progress, closing each connection as its request
   * ends, then, past the grace, closes the connections still open. Node closes the connections
   * idle when the close begins; one whose request was in progress was then kept alive, idle, for
   * the keep-alive timeout (72 s in Fastify), and the close waited for it (a test: the close of a
   * gateway in a busy test run waited in its HTTP server for its whole shutdown deadline, 25 s).
   */
  async close(): Promise<void> {
    const graceMs = this.options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS;
    const closing = this.app.close();
    const idle = setInterval(() => this.app.server.closeIdleConnections(), IDLE_CHECK_MS);
    const grace = setTimeout(() => {
      this.options.logger.warn({ event: 'http.close_forced', grace_ms: graceMs }, 'connections still open: closed');
      this.app.server.closeAllConnections();
    }, graceMs);
    try {
      await closing;
    } finally {
      clearInterval(idle);
      clearTimeout(grace);
    }
  }

  /** Where the server listens, as a URL (services log it, npm start prints it): https:// when serving TLS. */
  address(): string {
    const address = this.app.server.address();
    const scheme = this.options.tls === undefined ? 'http' : 'https';
    return typeof address === 'object' && address !== null
      ? `${scheme}://${address.address}:${address.port}`
      : String(address);
  }
}

/**
 * JSON must be UTF-8 (RFC 8259), but Fastify's parser reads other bytes as U+FFFD and goes on, so a
 * body with bytes that are no character would be published with characters its sender never wrote.
 * Such a body is refused as REQUEST_INVALID at the root; the rest is Fastify's own parser (its
 * prototype-poisoning checks included).
 */
function refuseBodiesNotUtf8(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    if (!isUtf8(body as Buffer)) {
      done(new BatonError('REQUEST_INVALID', 'the request body is not UTF-8', { path: '' }), undefined);
      return;
    }
    parseJson(request, (body as Buffer).toString('utf8'), done);
  });
}
