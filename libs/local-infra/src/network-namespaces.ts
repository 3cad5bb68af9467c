import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { isAlive } from './process-alive.js';

const run = promisify(execFile);

/** One node's network of its own: a namespace joined to the host by a veth pair on a bridge. */
export interface NodeNetwork {
  /** The network namespace a process joins with `ip netns exec`. */
  readonly namespace: string;
  /** The node's IPv4 address, reached from the host through the bridge. */
  readonly address: string;
  /**
   * Takes the node's link to the bridge down: nothing reaches it and nothing it sends leaves, with
   * no reset, as a failed switch port or a partition does. Its processes go on running.
   */
  cut(): Promise<void>;
  /** Brings the link up again. */
  reconnect(): Promise<void>;
}

export interface IsolatedNetworks {
  readonly nodes: readonly NodeNetwork[];
  /** Deletes the namespaces and the bridge (and the veth pairs with them). */
  remove(): Promise<void>;
}

const PREFIX = 'baton';

/** Whether this process may make network namespaces: Linux, root, and iproute2's `ip netns`. */
export function networkNamespacesUsable(): boolean {
  return (
    process.platform === 'linux' &&
    process.getuid?.() === 0 &&
    spawnSync('ip', ['netns', 'list'], { stdio: 'ignore' }).status === 0
  );
}

/**
 * Gives each of `count` nodes a network namespace of its own, with an address on a /24 of
 * 10.200.0.0/13 that no interface of the host uses, on a bridge the host holds the .1 of. The
 * names carry this process's id, so a run that was killed before it could remove them is cleaned
 * up by the next one's start.
 */
export async function isolateNodes(count: number): Promise<IsolatedNetworks> {
  await removeOrphans();
  const subnet = await freeSubnet();
  const bridge = `${PREFIX}b${process.pid}`;
  const made: string[] = [];
  const remove = async () => {
    for (const namespace of made) await ip('netns', 'delete', namespace).catch(() => undefined);
    await ip('link', 'delete', bridge).catch(() => undefined);
  };
  try {
    await ip('link', 'add', bridge, 'type', 'bridge');
    await ip('address', 'add', `${subnet}.1/24`, 'dev', bridge);
    await ip('link', 'set', bridge, 'up');
    const nodes: NodeNetwork[] = [];
    for (let index = 1; index <= count; index += 1) {
      const namespace = `${PREFIX}-${process.pid}-${index}`;
      const hostSide = `${PREFIX}v${process.pid}n${index}`;
      const address = `${subnet}.${10 + index}`;
      await ip('netns', 'add', namespace);
      made.push(namespace);
      await ip('link', 'add', hostSide, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', namespace);
      await ip('link', 'set', hostSide, 'master', bridge);
      await ip('link', 'set', hostSide, 'up');
      await ip('-n', namespace, 'address', 'add', `${address}/24`, 'dev', 'eth0');
      await ip('-n', namespace, 'link', 'set', 'eth0', 'up');
      await ip('-n', namespace, 'link', 'set', 'lo', 'up');
      nodes.push({
        namespace,
        address,
        cut: () => ip('link', 'set', hostSide, 'down'),
        reconnect: () => ip('link', 'set', hostSide, 'up'),
      });
    }
    return { nodes, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

async function ip(...args: string[]): Promise<void> {
  try {
    await run('ip', args);
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new Error(`ip ${args.join(' ')} failed${stderr ? `: ${stderr}` : ''}`, { cause: error });
  }
}

/** A /24 of 10.200.0.0/13 (10.200.0.0 to 10.207.255.255) on none of the host's interfaces. */
async function freeSubnet(): Promise<string> {
  const { stdout } = await run('ip', ['-4', '-o', 'address', 'show']);
  const used = new Set([...stdout.matchAll(/inet (\d+\.\d+\.\d+)\.\d+/g)].map((match) => match[1]));
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const subnet = `10.${200 + Math.floor(Math.random() * 8)}.${Math.floor(Math.random() * 256)}`;
    if (!used.has(subnet)) return subnet;
  }
  throw new Error('no free /24 in 10.200.0.0/13 for the nodes’ networks');
}

/** Namespaces and bridges of runs whose process is gone. */
async function removeOrphans(): Promise<void> {
  const { stdout: namespaces } = await run('ip', ['netns', 'list']);
  for (const match of namespaces.matchAll(new RegExp(`^(${PREFIX}-(\\d+)-\\d+)`, 'gm'))) {
    if (!isAlive(Number(match[2]))) await ip('netns', 'delete', match[1] as string).catch(() => undefined);
  }
  const { stdout: links } = await run('ip', ['-o', 'link', 'show', 'type', 'bridge']);
  for (const match of links.matchAll(new RegExp(`^\\d+: (${PREFIX}b(\\d+)):`, 'gm'))) {
    if (!isAlive(Number(match[2]))) await ip('link', 'delete', match[1] as string).catch(() => undefined);
  }
}
