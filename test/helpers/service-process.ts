import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bundleServices } from '../../scripts/lib/service-bundle.js';
import { serviceNodeArgs } from '../../scripts/lib/service-node-args.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServiceProcess {
  readonly child: ChildProcess;
  /** Every JSON log line the service printed. */
  readonly logs: Record<string, unknown>[];
  /** The service's HTTP address, from its `service.started` log line. */
  readonly address: string;
  /** Sends `signal` and resolves with the exit code once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs a service's main.ts as its own process from its bundle, as production does, and resolves
 * once it logs `service.started`. Rejects with its output when it exits first or does not start in time.
 */
export async function startServiceProcess(
  entry: string,
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<ServiceProcess> {
  await bundleServices([entry]);
  // One process, the service itself: a SIGKILL must reach it.
  const child = spawn(process.execPath, serviceNodeArgs(entry), {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  const stderr: string[] = [];
  const exited: Promise<number | null> = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} did not start within ${timeoutMs} ms:\n${stderr.join('')}`));
    }, timeoutMs);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${code} before starting:\n${JSON.stringify(logs)}\n${stderr.join('')}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      let entryLog: Record<string, unknown>;
      try {
        entryLog = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return;
      }
      logs.push(entryLog);
      if (entryLog.event === 'service.started') {
        clearTimeout(timer);
        const address = String(entryLog.http);
        resolve({
          child,
          logs,
          address,
          async stop(signal = 'SIGTERM') {
            if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
            child.kill(signal);
            return exited;
          },
        });
      }
    });
  });
}
