import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { isolateNodes, networkNamespacesUsable, type IsolatedNetworks } from '@baton/local-infra';
import { waitFor } from './helpers/index.js';

// What `npm run chaos -- --brokers 3` cuts a broker off with: each node in a network namespace of
// its own, on a bridge the host holds. Needs Linux and root, as the chaos run does.
let networks: IsolatedNetworks | undefined;
const servers: ChildProcess[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) server.kill('SIGKILL');
  await networks?.remove();
  networks = undefined;
});

const PORT = 7777;

/** A TCP server in `namespace` that answers `ok` to every connection. */
function serveIn(namespace: string, address: string): void {
  const program = `require('net').createServer((s) => s.end('ok')).listen(${PORT}, '${address}', () => console.log('listening'))`;
  const server = spawn('ip', ['netns', 'exec', namespace, process.execPath, '-e', program], { stdio: 'pipe' });
  servers.push(server);
}

/** Whether a connection from `namespace` (the host's when undefined) to `address` gets `ok` within `withinMs`. */
function answers(address: string, withinMs: number, namespace?: string): boolean {
  const program = `const s = require('net').connect(${PORT}, '${address}'); s.on('data', (d) => process.exit(String(d) === 'ok' ? 0 : 1)); s.on('error', () => process.exit(1)); setTimeout(() => process.exit(1), ${withinMs})`;
  const command =
    namespace === undefined
      ? [process.execPath, '-e', program]
      : ['ip', 'netns', 'exec', namespace, process.execPath, '-e', program];
  return spawnSync(command[0] as string, command.slice(1)).status === 0;
}

async function hostAnswers(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(PORT, address);
    socket.setTimeout(1_000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('data', (data) => resolve(String(data) === 'ok'));
    socket.once('error', () => resolve(false));
  });
}

test('nodes in namespaces of their own reach each other and the host, and one cut off reaches nothing until it is reconnected', async () => {
  expect(networkNamespacesUsable()).toBe(true);
  networks = await isolateNodes(2);
  const [first, second] = networks.nodes;
  if (first === undefined || second === undefined) throw new Error('two nodes were asked for');
  expect(first.address).toMatch(/^10\.20[0-7]\.\d+\.11$/);
  expect(second.address).toBe(first.address.replace(/\.11$/, '.12'));
  serveIn(first.namespace, first.address);
  await waitFor(() => hostAnswers(first.address), {
    timeoutMs: 10_000,
    description: 'the server in the first namespace',
  });
  expect(answers(first.address, 5_000, second.namespace)).toBe(true);

  await first.cut();
  expect(answers(first.address, 2_000)).toBe(false);
  expect(answers(first.address, 2_000, second.namespace)).toBe(false);

  await first.reconnect();
  await waitFor(() => hostAnswers(first.address), {
    timeoutMs: 10_000,
    description: 'the first namespace reconnected',
  });
  expect(answers(first.address, 5_000, second.namespace)).toBe(true);

  const namespaces = [first.namespace, second.namespace];
  await networks.remove();
  networks = undefined;
  const listed = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout;
  expect(namespaces.filter((namespace) => listed.includes(namespace))).toEqual([]);
});
