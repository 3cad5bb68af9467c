import { describe, expect, it } from 'vitest';
import { LazyConnection } from './lazy-connection.js';

describe('a lazy connection', () => {
  it('connects once however many callers wait for it', async () => {
    let calls = 0;
    const connection = new LazyConnection({ connect: async () => void calls++ });
    await Promise.all([connection.ensure(), connection.ensure()]);
    await connection.ensure();
    expect(calls).toBe(1);
  });

  it('tries again after a failed attempt', async () => {
    let calls = 0;
    const connection = new LazyConnection({
      connect: async () => {
        calls++;
        if (calls === 1) throw new Error('refused');
      },
    });
    await expect(connection.ensure()).rejects.toThrow('refused');
    await expect(connection.ensure()).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });
});
