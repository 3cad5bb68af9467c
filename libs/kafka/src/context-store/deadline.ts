/**
 * Runs `work` with a signal that aborts after `timeoutMs`, and rejects with `onTimeout()` at that
 * moment rather than when `work` gets round to settling: a client stuck connecting to a broker
 * that is gone must not hold its caller past the deadline. `work` should stop and clean up when
 * the signal aborts; its own outcome after the deadline is ignored.
 */
export async function withDeadline<T>(
  timeoutMs: number,
  onTimeout: () => Error,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = onTimeout();
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  const running = work(controller.signal);
  // Observed here so that work failing after the deadline is not an unhandled rejection.
  running.catch(() => undefined);
  try {
    return await Promise.race([running, expired]);
  } finally {
    clearTimeout(timer);
  }
}
