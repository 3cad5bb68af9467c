import { describe, expect, it } from 'vitest';
import { withDeadline } from './deadline.js';

describe('a deadline', () => {
  it('answers what the work answers in time', async () => {
    await expect(
      withDeadline(
        1_000,
        () => new Error('late'),
        async () => 'done',
      ),
    ).resolves.toBe('done');
    await expect(
      withDeadline(
        1_000,
        () => new Error('late'),
        () => Promise.reject(new Error('failed')),
      ),
    ).rejects.toThrow('failed');
  });

  it('rejects at the deadline without waiting for the work, and aborts its signal with the same error', async () => {
    let seen: AbortSignal | undefined;
    const outcome = withDeadline(
      20,
      () => new Error('late'),
      (signal) => {
        seen = signal;
        return new Promise<never>(() => undefined);
      },
    );
    await expect(outcome).rejects.toThrow('late');
    expect(seen?.aborted).toBe(true);
    expect((seen?.reason as Error).message).toBe('late');
  });
});
