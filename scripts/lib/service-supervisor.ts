import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { dieWithParent } from '@baton/local-infra';
import { serviceEntry } from './service-entries.js';
import { serviceNodeArgs } from './service-node-args.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where a service's log lines go: stdout (true), nowhere (false), or a function. */
export type Echo = boolean | ((line: string) => void);

export interface ProcessOptions {
  /**
   * Receives each line the service writes to stderr (kafkajs's JSON lines, Node's warnings, a
   * crash's stack trace). @default passed through to this process's stderr
   */
  onStderrLine?: (line: string) => void;
  /**
   * Runs the service in a process group of its own, out of reach of a terminal's Ctrl-C (which goes
   * to the whole foreground group): the caller stops it, in its own order. It is still told to stop
   * (SIGTERM) if the caller dies (Linux, with util-linux's setpriv). @default false
   */
  detached?: boolean;
}

export interface RunningService {
  name: string;
  child: ChildProcess;
  /** Resolves with the service's HTTP address once it logs `service.started`. */
  started: Promise<string>;
  exited: Promise<number | null>;
  /** Resolves once the process has exited and its output has been read to the end. */
  closed: Promise<void>;
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
  options: ProcessOptions = {},
): RunningService {
  // A service whose supervisor died (killed, or crashed before it could stop them) is told to
  // stop too (SIGTERM: it drains), rather than retrying a broker that went with the supervisor.
  const [command, args] = dieWithParent(process.execPath, serviceNodeArgs(entry), 'TERM');
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', options.onStderrLine ? 'pipe' : 'inherit'],
    detached: options.detached ?? false,
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  if (options.onStderrLine) createInterface({ input: child.stderr! }).on('line', options.onStderrLine);
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
  // A caller that stops the service before it started need not hear about it.
  started.catch(() => undefined);
  return { name, child, started, exited, closed };
}

/** Starts the service `name` from its bundle (see startProcess); `echo` and `options` as for `startProcess`. */
export function startService(
  name: string,
  env: Record<string, string>,
  echo: Echo = true,
  options: ProcessOptions = {},
): RunningService {
  return startProcess(name, serviceEntry(name), env, echo, options);
}

export interface StopOptions {
  /** How long a service gets to drain after SIGTERM before it is killed. @default no limit */
  graceMs?: number;
  /** Told about each service that had to be killed. */
  onKilled?: (service: RunningService) => void;
}

/**
 * SIGTERM to each service (they drain and commit), then waits for every one to exit, and for its
 * output to be read to the end; a service still running `graceMs` after SIGTERM is killed.
 */
export async function stopServices(services: RunningService[], options: StopOptions = {}): Promise<void> {
  await Promise.all(
    services.map(async (service) => {
      const { child } = service;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const killer =
        options.graceMs === undefined
          ? undefined
          : setTimeout(() => {
              if (child.exitCode !== null || child.signalCode !== null) return;
              options.onKilled?.(service);
              child.kill('SIGKILL');
            }, options.graceMs);
      try {
        await service.exited;
        await service.closed;
      } finally {
        clearTimeout(killer);
      }
    }),
  );
}
