import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitForHttpOptions {
  timeoutMs: number;
  /** Called after each failed attempt with the time spent so far. */
  onProgress?: (elapsedMs: number) => void;
  signal?: AbortSignal;
}

const FIRST_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 1_000;
const ATTEMPT_TIMEOUT_MS = 2_000;

/** Resolves once `url` answers 200 to a GET; rejects with the last failure after `timeoutMs`. */
export async function waitForHttpOk(url: string, options: WaitForHttpOptions): Promise<void> {
  const startedAt = Date.now();
  const deadline = startedAt + options.timeoutMs;
  let backoffMs = FIRST_BACKOFF_MS;
  for (;;) {
    options.signal?.throwIfAborted();
    let failure: string;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS) });
      await response.body?.cancel();
      if (response.status === 200) return;
      failure = `HTTP ${response.status}`;
    } catch (error) {
      failure =
        error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    }
    const now = Date.now();
    if (now >= deadline)
      throw new Error(`GET ${url} did not answer 200 within ${options.timeoutMs} ms (last: ${failure})`);
    options.onProgress?.(now - startedAt);
    await sleep(
      Math.min(backoffMs, deadline - now),
      undefined,
      options.signal ? { signal: options.signal } : undefined,
    );
    backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
  }
}
