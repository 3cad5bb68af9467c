/** One run of a process: ended by `stop()`, which resolves once it has ended. */
export interface ProcessRun {
  stop(): Promise<void>;
}

/** A process that can be stopped and launched again on the same settings (ports, data). */
export interface Restartable {
  /**
   * Ends the current run, if there is one, and launches a new one. Restarts run one at a time, in
   * call order. When a launch fails, nothing runs until the next restart, which tries again.
   * Rejects once `stop()` has been called.
   */
  restart(): Promise<void>;
  /**
   * Waits for a restart in progress, ends the current run, then cleans up (even when ending the run
   * failed). Safe to call more than once: every call shares the first one's promise.
   */
  stop(): Promise<void>;
}

/**
 * The lifecycle of a restartable process, kept apart from spawning it so it can be tested without
 * one: `launch` starts a new run, `cleanup` removes what every run shared (a data directory).
 */
export function restartable(
  first: ProcessRun,
  launch: () => Promise<ProcessRun>,
  cleanup: () => Promise<void>,
): Restartable {
  let current: ProcessRun | undefined = first;
  let queue: Promise<unknown> = Promise.resolve();
  let stopping: Promise<void> | undefined;
  const serially = <T>(step: () => Promise<T>): Promise<T> => {
    const result = queue.then(step);
    queue = result.catch(() => undefined);
    return result;
  };
  const endCurrent = async (): Promise<void> => {
    const run = current;
    current = undefined;
    await run?.stop();
  };
  return {
    restart() {
      if (stopping) return Promise.reject(new Error('a stopped process cannot be restarted'));
      return serially(async () => {
        await endCurrent();
        current = await launch();
      });
    },
    stop() {
      stopping ??= serially(async () => {
        try {
          await endCurrent();
        } finally {
          await cleanup();
        }
      });
      return stopping;
    },
  };
}
