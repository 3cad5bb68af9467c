import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceProcess } from './service-process.js';

export interface KillableServiceOptions {
  /** Names the service in errors and progress lines. */
  name: string;
  /**
   * Starts one incarnation (numbered from 1), e.g. with `startServiceProcess`; give each its own
   * instance id so logs, dead-letter headers and transactional ids' logs tell them apart.
   */
  start(incarnation: number): Promise<ServiceProcess>;
  /** How long a (re)start may keep failing, e.g. while Kafka is away, before giving up. @default 120_000 */
  startTimeoutMs?: number;
  /** Told of each start that failed and is tried again, and of each exit nobody asked for. */
  onEvent?(line: string): void;
}

/** A service process that a test can SIGKILL and that is started again at once. */
export interface KillableService {
  readonly name: string;
  /** The incarnation that runs now, undefined while one is being started. */
  readonly current: ServiceProcess | undefined;
  /** Every incarnation that started, the current one last. */
  readonly incarnations: readonly ServiceProcess[];
  /** SIGKILLs this handle sent. */
  readonly kills: number;
  /** Exits nobody asked for (a crash); each was followed by a start, as a supervisor would. */
  readonly unexpectedExits: number;
  /** Starts that failed and were tried again. */
  readonly failedStarts: number;
  /** SIGKILLs the current incarnation (no drain, no commit) and starts the next one at once. */
  killAndRestart(): Promise<ServiceProcess>;
  /** Stops the current incarnation and starts no other; resolves with its exit code. Idempotent. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Every JSON log line of every incarnation, oldest incarnation first. */
  logs(): Record<string, unknown>[];
}

/** Starts the first incarnation of a service and resolves with its handle once it has started. */
export async function startKillableService(options: KillableServiceOptions): Promise<KillableService> {
  const startTimeoutMs = options.startTimeoutMs ?? 120_000;
  const incarnations: ServiceProcess[] = [];
  /** Exits this handle caused, so the exit watcher leaves them alone. */
  const expectedExits = new WeakSet<ServiceProcess>();
  let current: ServiceProcess | undefined;
  let starting: Promise<ServiceProcess> | undefined;
  let stopping: Promise<number | null> | undefined;
  let kills = 0;
  let unexpectedExits = 0;
  let failedStarts = 0;

  const startNext = (): Promise<ServiceProcess> => {
    starting ??= (async () => {
      const deadline = Date.now() + startTimeoutMs;
      for (;;) {
        try {
          const started = await options.start(incarnations.length + 1);
          if (stopping) {
            expectedExits.add(started);
            await started.stop('SIGTERM');
            throw new Error(`${options.name} was stopped while it was starting`);
          }
          incarnations.push(started);
          current = started;
          watch(started);
          return started;
        } catch (error) {
          failedStarts += 1;
          if (Date.now() >= deadline || stopping) throw error;
          options.onEvent?.(`${options.name} did not start, trying again: ${String(error).split('\n')[0]}`);
          // A service that exits at once (no broker yet) would otherwise be started in a busy loop.
          await sleep(1_000);
        }
      }
    })().finally(() => (starting = undefined));
    return starting;
  };

  const watch = (service: ServiceProcess) => {
    // What a crash prints outside the JSON logs (an uncaught error's stack), its last 2 kB.
    let stderrTail = '';
    service.child.stderr?.on('data', (chunk: Buffer) => (stderrTail = (stderrTail + chunk.toString()).slice(-2_048)));
    service.child.once('exit', (code, signal) => {
      if (expectedExits.has(service) || stopping) return;
      unexpectedExits += 1;
      current = undefined;
      options.onEvent?.(
        `${options.name} exited by itself (code ${code}, signal ${signal}; last error: ${lastError(service)}; ` +
          `stderr ends: ${JSON.stringify(stderrTail.slice(-600))}); starting it again`,
      );
      startNext().catch(() => undefined);
    });
  };

  await startNext();
  return {
    name: options.name,
    get current() {
      return current;
    },
    incarnations,
    get kills() {
      return kills;
    },
    get unexpectedExits() {
      return unexpectedExits;
    },
    get failedStarts() {
      return failedStarts;
    },
    async killAndRestart() {
      if (stopping) throw new Error(`${options.name} was stopped: it is not killed and started again`);
      const victim = current ?? (await (starting ?? startNext()));
      expectedExits.add(victim);
      current = undefined;
      kills += 1;
      await victim.stop('SIGKILL');
      if (stopping) throw new Error(`${options.name} was stopped while it was being killed`);
      return startNext();
    },
    stop(signal = 'SIGTERM') {
      stopping ??= (async () => {
        const last = await (starting ?? Promise.resolve(current)).catch(() => current);
        if (last === undefined) return null;
        expectedExits.add(last);
        return last.stop(signal);
      })();
      return stopping;
    },
    logs: () => incarnations.flatMap((service) => service.logs),
  };
}

/** The last log line at error level or above (pino: 50 error, 60 fatal), in short. */
function lastError(service: ServiceProcess): string {
  const line = service.logs.findLast((entry) => Number(entry.level) >= 50);
  if (line === undefined) return 'none logged';
  const err = line.err as { code?: unknown; message?: unknown } | undefined;
  return JSON.stringify({ event: line.event, msg: line.msg, code: err?.code, error: err?.message });
}
