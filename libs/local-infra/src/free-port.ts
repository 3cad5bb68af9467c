import { createServer, type Server } from 'node:net';
import { hasErrorCode } from '@baton/errors';

/**
 * Ports the kernel reports free on 127.0.0.1, all distinct. Another process may still take one
 * before our child binds it; `retryOnPortClash` covers that window.
 */
export async function findFreePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', resolve);
      });
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
