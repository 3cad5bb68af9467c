import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';

/** Who may use the registry through the front, and whether it may change what the registry holds. */
export interface RegistryPrincipal {
  username: string;
  password: string;
  /** Registering schemas, setting compatibility, deleting: writes. Every principal may read. */
  mayWrite: boolean;
}

export interface StartRegistryFrontOptions {
  /** The registry's Confluent-compatible API on loopback, plain HTTP, e.g. http://127.0.0.1:40123/apis/ccompat/v7 */
  upstreamUrl: string;
  /** The front's certificate (with its chain) and unencrypted key, PEM files. */
  tls: { certPath: string; keyPath: string };
  principals: readonly RegistryPrincipal[];
}

/** An authenticating HTTPS front of a schema registry; `stop()` is safe to call twice. */
export interface RegistryFront {
  /** The same API as the upstream's, over HTTPS on 127.0.0.1, e.g. https://127.0.0.1:40125/apis/ccompat/v7 */
  url: string;
  stop(): Promise<void>;
}

/**
 * POSTs that change nothing in the Confluent API: the lookup of a schema's id under a subject
 * (`POST /subjects/{subject}`) and the compatibility checks (`POST /compatibility/...`).
 */
const READ_ONLY_POST = /^\/(subjects\/[^/]+|compatibility\/.+)$/;

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** The Confluent registry's error body: what registry clients read. */
function answer(
  response: http.ServerResponse,
  status: number,
  message: string,
  headers: http.OutgoingHttpHeaders = {},
) {
  response.writeHead(status, { 'content-type': 'application/vnd.schemaregistry.v1+json', ...headers });
  response.end(JSON.stringify({ error_code: status * 100 + 1, message }));
}

/**
 * Answers a refused request once its body has been read: an answer while the client still sends
 * resets the connection, and the client sees a hang-up instead of the refusal.
 */
function refuse(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  status: number,
  message: string,
  headers: http.OutgoingHttpHeaders = {},
): void {
  request.on('end', () => answer(response, status, message, headers));
  request.resume();
}

/**
 * Starts an HTTPS front of a registry that has no authentication of its own (Apicurio 2.x
 * authenticates only through an OIDC server): HTTP basic auth per principal, reads (GET, HEAD and
 * the read-only POSTs) for every principal, writes only for those that may write. It serves the
 * upstream's Confluent API path alone, so Apicurio's own API, which would bypass the checks, is not
 * reachable through it. This is the local stand-in of what a managed registry (Confluent Cloud's
 * API keys and role bindings) enforces. Anonymous requests answer 401, a write by a reader 403.
 */
export async function startRegistryFront(options: StartRegistryFrontOptions): Promise<RegistryFront> {
  const upstream = new URL(options.upstreamUrl);
  const basePath = upstream.pathname.replace(/\/+$/, '');
  const principals = options.principals.map((principal) => ({
    username: principal.username,
    mayWrite: principal.mayWrite,
    digest: digest(`${principal.username}:${principal.password}`),
  }));
  const agent = new http.Agent({ keepAlive: true });

  /** The principal of the request's basic credentials; every principal is compared, in constant time. */
  const authenticate = (header: string | undefined): (typeof principals)[number] | undefined => {
    const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
    if (!match) return undefined;
    const presented = digest(Buffer.from(match[1]!, 'base64').toString('utf8'));
    let found: (typeof principals)[number] | undefined;
    for (const principal of principals) if (timingSafeEqual(principal.digest, presented)) found = principal;
    return found;
  };

  const server = https.createServer(
    { cert: await readFile(options.tls.certPath), key: await readFile(options.tls.keyPath) },
    (request, response) => {
      const principal = authenticate(request.headers.authorization);
      if (principal === undefined) {
        return refuse(
          request,
          response,
          401,
          'the schema registry needs a username and password it knows (basic auth)',
          {
            'www-authenticate': 'Basic realm="schema-registry"',
          },
        );
      }
      // Dot segments (also percent-encoded) resolved here, and only the result forwarded: a path
      // that climbs out of the served one is judged where it lands.
      const target = new URL(request.url ?? '/', 'http://front');
      const path = target.pathname;
      if (path !== basePath && !path.startsWith(`${basePath}/`)) {
        return refuse(request, response, 404, `only ${basePath} is served here`);
      }
      const method = request.method ?? 'GET';
      const reads =
        method === 'GET' ||
        method === 'HEAD' ||
        (method === 'POST' && READ_ONLY_POST.test(path.slice(basePath.length)));
      if (!reads && !principal.mayWrite) {
        return refuse(
          request,
          response,
          403,
          `${principal.username} may read the schema registry, not change it (${method} ${path})`,
        );
      }
      const headers = { ...request.headers, host: upstream.host };
      delete headers.authorization;
      const forward = http.request(
        { host: upstream.hostname, port: upstream.port, path: `${path}${target.search}`, method, headers, agent },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          pipeline(answer, response).catch(() => response.destroy());
        },
      );
      forward.on('error', () => {
        if (!response.headersSent) answer(response, 502, 'the schema registry behind this front did not answer');
        else response.destroy();
      });
      pipeline(request, forward).catch(() => forward.destroy());
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let stopping: Promise<void> | undefined;
  return {
    url: `https://127.0.0.1:${port}${basePath}`,
    stop: () => {
      stopping ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      });
      return stopping;
    },
  };
}
