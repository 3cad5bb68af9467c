import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bundleServices } from '../../scripts/lib/service-bundle.js';
import { serviceNodeArgs } from '../../scripts/lib/service-node-args.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What the process inherits from the test's environment: where programs and temp files are, nothing else. */
const INHERITED = ['PATH', 'HOME', 'TMPDIR'] as const;

/** A service process whose environment is exactly what the test gave it, and everything it printed. */
export interface IsolatedService {
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
 * Runs a service's bundle (as startServiceProcess does) with no variable of the test process but
 * PATH, HOME and TMPDIR: a KAFKA_* of the test's shell cannot reach it. Resolves once spawned.
 */
export async function runIsolatedService(
  name: string,
  entry: string,
  env: Record<string, string>,
): Promise<IsolatedService> {
  await bundleServices([entry]);
  const inherited = Object.fromEntries(
    INHERITED.flatMap((key) => (process.env[key] === undefined ? [] : [[key, process.env[key] as string]])),
  );
  const child = spawn(process.execPath, serviceNodeArgs(entry), {
    cwd: ROOT,
    env: { ...inherited, LOG_LEVEL: 'info', ...env },
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
