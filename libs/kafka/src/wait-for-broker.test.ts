import { createServer } from 'node:net';
import { expect, test } from 'vitest';
import { hasErrorCode } from '@baton/errors';
import { waitForBroker, type BrokerWaitProgress } from './wait-for-broker.js';

/** A loopback port with nothing listening on it: connections to it are refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

test('gives up at the deadline with KAFKA_UNAVAILABLE, having reported each failed attempt', async () => {
  const brokers = [`127.0.0.1:${await closedPort()}`];
  const progress: BrokerWaitProgress[] = [];

  const error = await waitForBroker(brokers, { timeoutMs: 600, onProgress: (p) => progress.push(p) }).catch(
    (caught: unknown) => caught,
  );

  expect(hasErrorCode(error, 'KAFKA_UNAVAILABLE')).toBe(true);
  expect((error as Error).message).toBe(`Kafka at ${brokers[0]} did not answer a metadata request within 600 ms.`);
  expect(progress.length).toBeGreaterThanOrEqual(2);
  expect(progress.map((p) => p.attempt)).toEqual(progress.map((_, index) => index + 1));
  expect((error as { details?: Record<string, unknown> }).details).toEqual({ brokers, attempts: progress.length + 1 });
});

test('stops waiting as soon as its signal is aborted', async () => {
  const brokers = [`127.0.0.1:${await closedPort()}`];
  const controller = new AbortController();
  const startedAt = Date.now();

  const waiting = waitForBroker(brokers, {
    timeoutMs: 30_000,
    signal: controller.signal,
    onProgress: () => controller.abort(),
  });

  await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
  expect(Date.now() - startedAt).toBeLessThan(5_000);
});
