import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { BatonError } from '@baton/errors';
import { onProcessExit } from './exit-guard.js';
import { OutputTail } from './output-tail.js';

/**
 * A small heap and a quick start matter more than peak throughput for a local broker or registry on
 * a 2-core machine: the serial collector needs no GC threads, and C1 alone compiles sooner.
 */
export const QUICK_START_JVM_OPTIONS = ['-Xmx512m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-XX:-UsePerfData'];

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all (e.g. `java` is not on PATH). */
  error?: Error;
}

export interface JavaProcess {
  /** The JVM's process id (setpriv, when used, execs it); undefined when it could not be started. */
  readonly pid: number | undefined;
  /** Settles once the process has ended and its output is fully read. */
  readonly exited: Promise<ProcessExit>;
  /** Aborted when the process ends: hand it to a readiness wait so a crash ends the wait at once. */
  readonly exitSignal: AbortSignal;
  /** The process's last lines of stdout and stderr, interleaved. */
  outputTail(): string;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`. Safe to call more than once. */
  stop(graceMs?: number): Promise<ProcessExit>;
}

export interface SpawnJavaOptions {
  cwd?: string;
  /** A file the JVM's stdout and stderr are appended to, besides the tail kept in memory. */
  logFile?: string;
  /** Written to the JVM's stdin, which is then closed: how a secret reaches it without its argv. */
  input?: string;
  /** A network namespace (network-namespaces.ts) the JVM runs in, through `ip netns exec`. */
  netns?: string;
}

/**
 * Starts `java` with `args` in a process group of its own (detached), so a terminal's Ctrl-C, which
 * goes to the whole foreground group, does not reach it: the process that started it stops it,
 * after what uses it (a broker must outlive the services draining into it). It is still killed
 * when this process exits or dies (see onProcessExit and dieWithParent).
 */
export function spawnJava(args: string[], options: SpawnJavaOptions = {}): JavaProcess {
  const [command, commandArgs] =
    options.netns === undefined
      ? dieWithParent('java', args)
      : // `ip netns exec` execs java in place: the pid is the JVM's.
        dieWithParent('ip', ['netns', 'exec', options.netns, 'java', ...args]);
  const child = spawn(command, commandArgs, {
    cwd: options.cwd,
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    detached: true,
  });
  if (options.input !== undefined && child.stdin) {
    // A JVM that exits before reading it all closes the pipe: its exit code tells, not EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  }
  const tail = new OutputTail();
  const log = options.logFile === undefined ? undefined : createWriteStream(options.logFile, { flags: 'a' });
  // A log file that cannot be written must not take the JVM down with an unhandled error.
  log?.on('error', () => undefined);
  const onOutput = (chunk: Buffer): void => {
    tail.push(chunk);
    log?.write(chunk);
  };
  child.stdout?.on('data', onOutput);
  child.stderr?.on('data', onOutput);

  const forget = onProcessExit(() => child.kill('SIGKILL'));
  const exited = new Promise<ProcessExit>((resolve) => {
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  const exitController = new AbortController();
  void exited.then(() => {
    forget();
    log?.end();
    exitController.abort();
  });

  let stopping: Promise<ProcessExit> | undefined;
  const stop = (graceMs = 15_000): Promise<ProcessExit> => {
    stopping ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    })();
    return stopping;
  };

  return { pid: child.pid, exited, exitSignal: exitController.signal, outputTail: () => tail.toString(), stop };
}

/**
 * The error for a process that did not become ready: why (it exited, or the wait gave up) and the
 * last lines it wrote, which usually name the cause.
 */
export async function startFailure(component: string, child: JavaProcess, waitError: unknown): Promise<BatonError> {
  const exit = child.exitSignal.aborted ? await child.exited : undefined;
  const why = exit
    ? `exited (code ${exit.code}, signal ${exit.signal})`
    : `was not ready in time (${waitError instanceof Error ? waitError.message : String(waitError)})`;
  const output = child.outputTail();
  return new BatonError('INFRA_START_FAILED', `${component} ${why}. Its last output:\n${output}`, {
    cause: exit?.error ?? waitError,
    details: { output },
  });
}

let setprivAvailable: boolean | undefined;

/**
 * Exit handlers cannot run when this process is killed with SIGKILL (a CI timeout, an OOM
 * killer), and a child left behind keeps its ports and memory (a JVM, half a gigabyte). On Linux,
 * util-linux's setpriv asks the kernel to send `signal` to the child when its parent dies, whatever
 * the cause, and then execs the command, so the child's pid is the command's own. The kernel ties
 * that to the spawning thread, which is why this must not be called from a worker thread.
 */
export function dieWithParent(command: string, args: string[], signal: 'KILL' | 'TERM' = 'KILL'): [string, string[]] {
  setprivAvailable ??=
    process.platform === 'linux' && spawnSync('setpriv', ['--help'], { stdio: 'ignore' }).status === 0;
  return setprivAvailable ? ['setpriv', ['--pdeathsig', signal, '--', command, ...args]] : [command, args];
}
