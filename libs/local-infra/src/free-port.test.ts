import { createServer } from 'node:net';
import { expect, test } from 'vitest';
import { BatonError } from '@baton/errors';
import { findFreePorts, retryOnPortClash } from './free-port.js';

test('finds distinct ports below the kernel’s ephemeral ranges', async () => {
  const ports = await findFreePorts(3);

  expect(new Set(ports).size).toBe(3);
  for (const port of ports) expect(port >= 20_000 && port < 32_768, String(port)).toBe(true);
});

test('passes over a port another process holds, and one it picked already', async () => {
  const taken = await findFreePorts(2);
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(taken[0], '127.0.0.1', resolve));
  try {
    const picks = [taken[0], taken[1], taken[1], taken[0]] as number[];
    const next = (): number => picks.shift() ?? 0;
    // taken[0] is held, taken[1] free, then taken[1] is ours already and taken[0] still held; 0 then
    // asks the kernel for any free port.
    const ports = await findFreePorts(2, next);
    expect(ports[0]).toBe(taken[1]);
    expect(ports[1]).not.toBe(taken[0]);
    expect(picks).toEqual([]);
  } finally {
    await new Promise<void>((resolve) => holder.close(() => resolve()));
  }
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
