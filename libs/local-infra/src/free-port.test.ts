import { expect, test } from 'vitest';
import { BatonError } from '@baton/errors';
import { findFreePorts, retryOnPortClash } from './free-port.js';

test('finds distinct ports', async () => {
  const ports = await findFreePorts(3);

  expect(new Set(ports).size).toBe(3);
  for (const port of ports) expect(port).toBeGreaterThan(0);
});

const clash = (): BatonError =>
  new BatonError('INFRA_START_FAILED', 'exited', {
    details: { output: 'java.net.BindException: Address already in use' },
  });

test('starts again when the child lost its port to another process', async () => {
  let attempts = 0;

  const result = await retryOnPortClash(async () => {
    attempts += 1;
    if (attempts < 3) throw clash();
    return 'started';
  });

  expect(result).toBe('started');
  expect(attempts).toBe(3);
});

test('gives up after the last attempt, and at once on any other failure', async () => {
  let attempts = 0;
  await expect(
    retryOnPortClash(async () => {
      attempts += 1;
      throw clash();
    }, 2),
  ).rejects.toMatchObject({ code: 'INFRA_START_FAILED' });
  expect(attempts).toBe(2);

  attempts = 0;
  await expect(
    retryOnPortClash(async () => {
      attempts += 1;
      throw new BatonError('INFRA_START_FAILED', 'exited', { details: { output: 'OutOfMemoryError' } });
    }),
  ).rejects.toThrow('exited');
  expect(attempts).toBe(1);
});
