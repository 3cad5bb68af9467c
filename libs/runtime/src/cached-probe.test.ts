import { describe, expect, it } from 'vitest';
import { cachedProbe } from './cached-probe.js';

function clock(): { now: () => number; advance(ms: number): void } {
  let time = 0;
  return { now: () => time, advance: (ms) => (time += ms) };
}

describe('cachedProbe', () => {
  it('reuses an answer for ttlMs and asks again after', async () => {
    const time = clock();
    let calls = 0;
    const probe = cachedProbe(async () => ++calls, { ttlMs: 1_000, timeoutMs: 100, now: time.now });
    expect(await probe()).toBe(1);
    time.advance(999);
    expect(await probe()).toBe(1);
    time.advance(1);
    expect(await probe()).toBe(2);
  });

  it('shares one check among concurrent callers', async () => {
    let calls = 0;
    const probe = cachedProbe(
      async () => {
        calls += 1;
        await new Promise((resolve) => setTimeout(resolve, 10));
        return 'ok';
      },
      { ttlMs: 0, timeoutMs: 1_000 },
    );
    expect(await Promise.all([probe(), probe(), probe()])).toEqual(['ok', 'ok', 'ok']);
    expect(calls).toBe(1);
  });

  it('reads undefined for a failure, and caches the failure too', async () => {
    const time = clock();
    let calls = 0;
    const probe = cachedProbe(
      async () => {
        calls += 1;
        throw new Error('down');
      },
      { ttlMs: 1_000, timeoutMs: 100, now: time.now },
    );
    expect(await probe()).toBeUndefined();
    expect(await probe()).toBeUndefined();
    expect(calls).toBe(1);
  });

  it('gives up waiting after timeoutMs and does not start a second check while the first runs', async () => {
    let calls = 0;
    let finish: (value: string) => void = () => undefined;
    const probe = cachedProbe(
      () => {
        calls += 1;
        return new Promise<string>((resolve) => (finish = resolve));
      },
      { ttlMs: 0, timeoutMs: 20 },
    );
    expect(await probe()).toBeUndefined();
    expect(await probe()).toBeUndefined();
    expect(calls).toBe(1);
    finish('late');
    await new Promise((resolve) => setImmediate(resolve));
    // The late answer was stored; with ttlMs 0 the next call asks again.
    const next = probe();
    finish('fresh');
    expect(await next).toBe('fresh');
    expect(calls).toBe(2);
  });
});
