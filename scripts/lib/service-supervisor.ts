import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { dieWithParent } from '@baton/local-infra';
import { serviceEntry } from './service-entries.js';
import { serviceNodeArgs } from './service-node-args.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where a service's log lines go: stdout (true), nowhere (false), or a function. */
export type Echo = boolean | ((line: string) => void);

export interface RunningService {
  name: string;
  child: ChildProcess;
  /** Resolves with the service's HTTP address once it logs `service.started`. */
  started: Promise<string>;
  exited: Promise<number | null>;
}

/**
 * Starts `entry` as its own Node process, as every service runs (serviceNodeArgs: the Node options
 * of services/node.env and the entry's bundle, which must have been built with bundleServices; the
 * pid is the service itself). With
 * `echo`, its JSON log lines are passed through to stdout unchanged; given a function, each line
 * goes to it instead.
 */
export function startProcess(
  name: string,
  entry: string,
  env: Record<string, string>,
  echo: Echo = true,
): RunningService {
  // A service whose supervisor died (killed, or crashed before it could stop them) is told to
  // stop too (SIGTERM: it drains), rather than retrying a broker that went with the supervisor.
  const [command, args] = dieWithParent(process.execPath, serviceNodeArgs(entry), 'TERM');
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const started = new Promise<string>((resolve, reject) => {
    void exited.then((code) => reject(new Error(`${name} exited with code ${code} before it started`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (typeof echo === 'function') echo(line);
      else if (echo) process.stdout.write(`${line}\n`);
      if (!line.includes('"service.started"')) return;
      try {
        resolve(String((JSON.parse(line) as { http?: unknown }).http));
      } catch {
        // Not JSON after all: keep waiting for the real start line.
      }
    });
  });
  return { name, child, started, exited };
}

/** Starts the service `name` from its bundle (see startProcess); `echo` as for `startProcess`. */
export function startService(name: string, env: Record<string, string>, echo: Echo = true): RunningService {
  return startProcess(name, serviceEntry(name), env, echo);
}

/** SIGTERM to each service (they drain and commit), then waits for every one to exit. */
export async function stopServices(services: RunningService[]): Promise<void> {
  for (const service of services) {
    if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGTERM');
  }
  await Promise.all(services.map((service) => service.exited));
}
