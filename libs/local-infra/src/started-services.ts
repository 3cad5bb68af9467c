/** A Kafka broker to use; `stop()` stops it if this process started it, and is safe to call twice. */
export interface StartedKafka {
  brokers: string[];
  stop(): Promise<void>;
}

/** A schema registry to use; `stop()` stops it if this process started it, and is safe to call twice. */
export interface StartedRegistry {
  /** The Confluent-compatible API, e.g. http://127.0.0.1:40123/apis/ccompat/v7 */
  url: string;
  stop(): Promise<void>;
}

/** Stops every service even when one of them fails to stop, then reports the failures. */
export async function stopAll(services: { stop(): Promise<void> }[]): Promise<void> {
  const results = await Promise.allSettled(services.map((service) => service.stop()));
  const errors = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
  if (errors.length > 0) throw new AggregateError(errors, 'some services did not stop cleanly');
}

/**
 * Starts services side by side. If one fails, those that did start are stopped again before the
 * failure is passed on, so a half-provisioned run leaves nothing behind.
 */
export async function startTogether<T extends { stop(): Promise<void> }[]>(starts: {
  [K in keyof T]: Promise<T[K]>;
}): Promise<T> {
  const results = await Promise.allSettled(starts);
  const started = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) {
    await stopAll(started).catch(() => undefined);
    throw failure.reason;
  }
  return started as T;
}
