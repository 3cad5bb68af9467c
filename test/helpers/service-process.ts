import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { bundleServices } from '../../scripts/lib/service-bundle.js';
import { serviceNodeArgs } from '../../scripts/lib/service-node-args.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The test services' consumer session (BATON_SESSION_TIMEOUT_MS), unless a test sets its own: an
 * instance SIGKILLed holds its partitions until the session ends, and a replacement waits for it.
 * A third of the 30 s default saves 20 s per kill.
 */
const TEST_SESSION_TIMEOUT_MS = '10000';

/** A service process as spawned, and everything it printed. */
export interface SpawnedService {
  readonly name: string;
  readonly child: ChildProcess;
  /** Every JSON log line printed on stdout. */
  readonly logs: Record<string, unknown>[];
  /** Every line printed, stdout (JSON or not) and stderr. */
  readonly lines: string[];
  /** Resolves with the exit code (null when killed by a signal) once the process has exited. */
  readonly exited: Promise<number | null>;
  /** Resolves with the `service.started` line; rejects when the process exits first. */
  readonly started: Promise<Record<string, unknown>>;
  /** Sends `signal` and resolves with the exit code once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs a service's main.ts as its own process from its bundle, as production does, with exactly
 * `env` (LOG_LEVEL info and a 10 s session unless it says otherwise). Resolves once spawned.
 */
export async function spawnService(name: string, entry: string, env: Record<string, string>): Promise<SpawnedService> {
  await bundleServices([entry]);
  // One process, the service itself: a SIGKILL must reach it.
  const child = spawn(process.execPath, serviceNodeArgs(entry), {
    cwd: ROOT,
    env: { LOG_LEVEL: 'info', BATON_SESSION_TIMEOUT_MS: TEST_SESSION_TIMEOUT_MS, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  createInterface({ input: child.stderr! }).on('line', (line) => lines.push(line));
  const started = new Promise<Record<string, unknown>>((resolve, reject) => {
    void exited.then((code) =>
      reject(new Error(`${name} exited with ${code} before starting:\n${lines.slice(-20).join('\n')}`)),
    );
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      let entryLog: Record<string, unknown>;
      try {
        entryLog = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return;
      }
      logs.push(entryLog);
      if (entryLog.event === 'service.started') resolve(entryLog);
    });
  });
  // Awaited by whoever needs it; an early exit must not be an unhandled rejection meanwhile.
  started.catch(() => undefined);
  return {
    name,
    child,
    logs,
    lines,
    exited,
    started,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
  };
}

export interface ServiceProcess {
  readonly child: ChildProcess;
  /** Every JSON log line the service printed. */
  readonly logs: Record<string, unknown>[];
  /** Every line printed, stdout (JSON or not) and stderr. */
  readonly lines: string[];
  /** The service's HTTP address, from its `service.started` log line. */
  readonly address: string;
  /** Sends `signal` and resolves with the exit code once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs a service with the test process's environment and `env` over it, and resolves once it logs
 * `service.started`. Rejects with its output when it exits first or does not start in time.
 */
export async function startServiceProcess(
  entry: string,
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<ServiceProcess> {
  const service = await spawnService(entry, entry, { ...(process.env as Record<string, string>), ...env });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      service.child.kill('SIGKILL');
      reject(new Error(`${entry} did not start within ${timeoutMs} ms:\n${service.lines.slice(-20).join('\n')}`));
    }, timeoutMs);
  });
  try {
    const started = await Promise.race([service.started, timedOut]);
    return {
      child: service.child,
      logs: service.logs,
      lines: service.lines,
      address: String(started.http),
      stop: service.stop,
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Asserts that every service stopped cleanly (exit code 0), naming each one's code when one did not. */
export function expectCleanExits(codes: Record<string, number | null>): void {
  expect(
    Object.values(codes).every((code) => code === 0),
    JSON.stringify(codes),
  ).toBe(true);
}
