/**
 * The room an instance has for messages it received and has not committed yet: at most
 * `maxMessages` of them, and about `maxBytes` of their bytes, so a topic of large handoffs cannot
 * fill memory with as many as a topic of small ones. A message larger than `maxBytes` still comes
 * in when nothing else is held, alone, as Kafka's fetches still return a batch larger than their
 * byte limits. `take` waits, in arrival order, until room is given back; `cancelWaiters` ends every
 * wait with `false` (a consumer closing).
 */
interface Waiter {
  bytes: number;
  granted(granted: boolean): void;
}

export class BufferRoom {
  private messages = 0;
  private bytes = 0;
  private readonly waiters: Waiter[] = [];

  constructor(
    readonly maxMessages: number,
    readonly maxBytes: number,
  ) {
    for (const [name, value] of Object.entries({ maxMessages, maxBytes })) {
      if (!Number.isInteger(value) || value < 1)
        throw new RangeError(`${name} must be a positive integer, not ${value}`);
    }
  }

  /** Messages held. */
  get heldMessages(): number {
    return this.messages;
  }

  /** Their bytes. */
  get heldBytes(): number {
    return this.bytes;
  }

  /** Room for one message of `bytes`, at once or not at all; never ahead of a waiting take. */
  tryTake(bytes: number): boolean {
    if (this.waiters.length > 0 || !this.fits(bytes)) return false;
    this.hold(bytes);
    return true;
  }

  /** Resolves true once there is room for one message of `bytes`, false when the waits were cancelled. */
  take(bytes: number): Promise<boolean> {
    if (this.tryTake(bytes)) return Promise.resolve(true);
    return new Promise((granted) => this.waiters.push({ bytes, granted }));
  }

  /** Gives back the room of `messages` messages of `bytes` in all, and lets in whoever waits and now fits. */
  give(messages: number, bytes: number): void {
    if (messages > this.messages || bytes > this.bytes) {
      throw new Error(
        `gave back ${messages} messages of ${bytes} bytes, more than the ${this.messages} of ${this.bytes} held`,
      );
    }
    this.messages -= messages;
    this.bytes -= bytes;
    for (let next = this.waiters[0]; next !== undefined && this.fits(next.bytes); next = this.waiters[0]) {
      const waiter = this.waiters.shift() as Waiter;
      this.hold(waiter.bytes);
      waiter.granted(true);
    }
  }

  cancelWaiters(): void {
    for (const waiter of this.waiters.splice(0)) waiter.granted(false);
  }

  private fits(bytes: number): boolean {
    return this.messages === 0 || (this.messages < this.maxMessages && this.bytes + bytes <= this.maxBytes);
  }

  private hold(bytes: number): void {
    this.messages += 1;
    this.bytes += bytes;
  }
}

/** The bytes a received record holds room for: its value and key, what it brings into memory. */
export function roomOf(record: { key: string | null; value: Buffer | null }): number {
  return (record.value?.length ?? 0) + (record.key?.length ?? 0);
}
