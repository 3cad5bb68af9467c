import { BatonError, isBatonError } from '@baton/errors';

/** A failure of Kafka's as KAFKA_UNAVAILABLE (503, worth retrying); a coded one as it is. */
export function kafkaFailure(error: unknown, doing: string): BatonError {
  if (isBatonError(error)) return error;
  return new BatonError('KAFKA_UNAVAILABLE', `could not ${doing}: ${(error as Error).message}`, { cause: error });
}

/**
 * Rejects with KAFKA_UNAVAILABLE after `ms`, leaving the work itself running: a client is answered
 * 503 in time, and may retry, while a send that Kafka acknowledges late still happens.
 */
export function kafkaDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new BatonError('KAFKA_UNAVAILABLE', `Kafka did not acknowledge ${what} within ${ms} ms`)),
      ms,
    );
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
