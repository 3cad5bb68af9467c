import { createServer, type Server } from 'node:net';
import { hasErrorCode } from '@baton/errors';

/**
 * Where ports are picked: below the ranges the kernel draws from for bind(0) and outgoing
 * connections (Linux 32768-60999, macOS and Windows 49152-65535). A port the kernel handed out as
 * free was soon handed to another process too: a JVM takes seconds to bind what it was given, and
 * with two test files at once, npm start's broker lost its port to another file's process, so its
 * kafka.log held the failed attempt's errors before retryOnPortClash started it again.
 */
const PICK_FROM = 20_000;
const PICK_TO = 32_768;

function randomPort(): number {
  return PICK_FROM + Math.floor(Math.random() * (PICK_TO - PICK_FROM));
}

/** Listens on `port`; false when another process (or one of ours) holds it. */
function bind(server: Server, port: number): Promise<boolean> {
  return new Promise<boolean>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES') resolve(false);
      else reject(error);
    });
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
}

/**
 * Ports free on 127.0.0.1, all distinct, picked at random outside the ephemeral ranges. Another
 * process may still take one before our child binds it; `retryOnPortClash` covers that window.
 */
export async function findFreePorts(count: number, pick: () => number = randomPort): Promise<number[]> {
  const servers: Server[] = [];
  try {
    while (servers.length < count) {
      const server = createServer();
      if (await bind(server, pick())) servers.push(server);
    }
    return servers.map((server) => {
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error('a TCP server has no port');
      return address.port;
    });
  } finally {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }
}

const PORT_CLASH = /Address already in use|BindException|seems to be in use/;

export async function retryOnPortClash<T>(start: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await start();
    } catch (error) {
      const output = hasErrorCode(error, 'INFRA_START_FAILED') ? error.details?.['output'] : undefined;
      if (attempt >= attempts || typeof output !== 'string' || !PORT_CLASH.test(output)) throw error;
    }
  }
}
