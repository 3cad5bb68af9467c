/**
 * One part of a service that holds something while the service runs: a consumer, a reader, a
 * heartbeat, a producer, the HTTP server. A service starts its components in order and closes them
 * in reverse, so a component may use every one before it from its start to its close.
 */
export interface Component {
  /** For logs: `http`, `consumer`, `registry-reader`. */
  readonly name: string;
  start(): Promise<void>;
  /** Gives back what start took. Called once, and only after start resolved. */
  close(): Promise<void>;
  /** Whether it can do its work now; a component without it is ready once started. */
  isReady?(): boolean;
}

export interface ComponentParts {
  start?(): Promise<unknown>;
  close?(): Promise<unknown>;
  isReady?(): boolean;
}

/** A component from functions, for parts that are not classes of their own. */
export function component(name: string, parts: ComponentParts): Component {
  return {
    name,
    start: async () => {
      await parts.start?.();
    },
    close: async () => {
      await parts.close?.();
    },
    ...(parts.isReady === undefined ? {} : { isReady: () => parts.isReady?.() ?? true }),
  };
}

/**
 * Components that start in order but close all at once: consumers that each drain their own work
 * and need nothing of one another, so a stop waits for the slowest of them rather than their sum.
 */
export function concurrently(name: string, parts: readonly Component[]): Component {
  const started: Component[] = [];
  const closeStarted = async (): Promise<void> => {
    const results = await Promise.allSettled(started.splice(0).map((part) => part.close()));
    const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, `${failures.length} parts of ${name} did not close`);
  };
  return {
    name,
    async start() {
      for (const part of parts) {
        try {
          await part.start();
        } catch (error) {
          // The service closes only what started whole: the parts started so far are this one's to close.
          await closeStarted().catch(() => undefined);
          throw error;
        }
        started.push(part);
      }
    },
    close: closeStarted,
    isReady: () => parts.every((part) => part.isReady?.() ?? true),
  };
}
