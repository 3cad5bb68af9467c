import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import type { Host, RunResult } from './tools.js';

/** What a command may print that is kept: apt's errors come last. */
const OUTPUT_KEPT = 64 * 1024;

/** This machine, for tools.ts. */
export function realHost(): Host {
  return {
    env: process.env,
    uid: process.getuid?.(),
    isExecutable(path) {
      try {
        accessSync(path, constants.X_OK);
        return statSync(path).isFile();
      } catch {
        return false;
      }
    },
    run(command, args, { timeoutMs } = {}) {
      return new Promise<RunResult>((resolve) => {
        const output = { stdout: '', stderr: '' };
        const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
        for (const stream of ['stdout', 'stderr'] as const) {
          child[stream].setEncoding('utf8').on('data', (chunk: string) => {
            output[stream] = (output[stream] + chunk).slice(-OUTPUT_KEPT);
          });
        }
        child.on('error', (error) => resolve({ code: null, ...output, error: `${command}: ${error.message}` }));
        child.on('close', (code, signal) => {
          const error =
            signal === null
              ? undefined
              : timeoutMs !== undefined && signal === 'SIGTERM'
                ? `${command} ${args[args.length - 1] ?? ''} timed out after ${Math.round(timeoutMs / 1000)} s`
                : `${command} was killed by ${signal}`;
          resolve({ code, ...output, ...(error === undefined ? {} : { error }) });
        });
      });
    },
  };
}
