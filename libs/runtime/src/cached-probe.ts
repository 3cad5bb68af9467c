export interface CachedProbeOptions {
  /** How long an answer (or a failure) is reused. */
  ttlMs: number;
  /** How long a caller waits for a fresh answer before taking `undefined`. */
  timeoutMs: number;
  now?: () => number;
}

/**
 * Wraps an expensive check that a scrape triggers (a broker round trip, an HTTP probe) so that
 * scrapes stay cheap and bounded: an answer is reused for `ttlMs`; concurrent callers share one
 * check in flight, and a check still running is never started again; a caller waits at most
 * `timeoutMs`. A failed or late check reads `undefined`, and a failure is cached like an answer,
 * so a down dependency is not hammered by every scrape.
 */
export function cachedProbe<T>(probe: () => Promise<T>, options: CachedProbeOptions): () => Promise<T | undefined> {
  const now = options.now ?? Date.now;
  let cached: { at: number; value: T | undefined } | undefined;
  let inFlight: Promise<T | undefined> | undefined;
  return async () => {
    if (cached !== undefined && now() - cached.at < options.ttlMs) return cached.value;
    inFlight ??= probe()
      .catch(() => undefined)
      .then((value) => {
        cached = { at: now(), value };
        inFlight = undefined;
        return value;
      });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), options.timeoutMs);
      timer.unref();
    });
    try {
      return await Promise.race([inFlight, late]);
    } finally {
      clearTimeout(timer);
    }
  };
}
