/**
 * A counting semaphore: at most `limit` permits out at once; `acquire` waits, in arrival order,
 * until one is returned. `cancelWaiters` ends every wait with `false` (a consumer closing).
 */
export class Permits {
  private available: number;
  private readonly waiters: ((granted: boolean) => void)[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`permit limit must be a positive integer, not ${limit}`);
    this.available = limit;
  }

  tryAcquire(): boolean {
    if (this.available === 0 || this.waiters.length > 0) return false;
    this.available -= 1;
    return true;
  }

  /** Resolves true with a permit, or false when the waiters were cancelled. */
  acquire(): Promise<boolean> {
    if (this.tryAcquire()) return Promise.resolve(true);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(count = 1): void {
    for (let i = 0; i < count; i += 1) {
      const waiter = this.waiters.shift();
      if (waiter) waiter(true);
      else if (this.available < this.limit) this.available += 1;
      else throw new Error('released more permits than were acquired');
    }
  }

  cancelWaiters(): void {
    for (const waiter of this.waiters.splice(0)) waiter(false);
  }

  get inUse(): number {
    return this.limit - this.available;
  }

  get waiting(): number {
    return this.waiters.length;
  }
}
