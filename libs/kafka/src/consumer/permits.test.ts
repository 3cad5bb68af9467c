import { describe, expect, it } from 'vitest';
import { Permits } from './permits.js';

describe('Permits', () => {
  it('hands out up to its limit, then grants waiters in arrival order as permits come back', async () => {
    const permits = new Permits(2);
    expect(await permits.acquire()).toBe(true);
    expect(permits.tryAcquire()).toBe(true);
    expect(permits.tryAcquire()).toBe(false);
    const order: string[] = [];
    const first = permits.acquire().then((granted) => order.push(`first ${granted}`));
    const second = permits.acquire().then((granted) => order.push(`second ${granted}`));
    expect(permits.waiting).toBe(2);
    permits.release();
    await first;
    expect(order).toEqual(['first true']);
    permits.release();
    await second;
    expect(order).toEqual(['first true', 'second true']);
    expect(permits.inUse).toBe(2);
    permits.release(2);
    expect(permits.inUse).toBe(0);
    expect(() => permits.release()).toThrow('released more permits than were acquired');
  });

  it('ends every wait with false when cancelled', async () => {
    const permits = new Permits(1);
    permits.tryAcquire();
    const waiting = permits.acquire();
    permits.cancelWaiters();
    expect(await waiting).toBe(false);
    expect(permits.waiting).toBe(0);
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => new Permits(0)).toThrow(RangeError);
  });
});
