import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitForOptions {
  /** What is awaited, for the timeout message: "the record to come back". */
  description: string;
  /** @default 15_000 */
  timeoutMs?: number;
  /** @default 50 */
  intervalMs?: number;
}

/**
 * Polls `condition` until it returns something other than false, undefined or null, and resolves
 * with that. A throwing condition counts as not yet; its last error is reported on timeout.
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  options: WaitForOptions,
): Promise<Exclude<T, false | undefined | null>> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await condition();
      if (value !== false && value !== undefined && value !== null)
        return value as Exclude<T, false | undefined | null>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for ${options.description}`,
        lastError === undefined ? undefined : { cause: lastError },
      );
    }
    await sleep(options.intervalMs ?? 50);
  }
}
