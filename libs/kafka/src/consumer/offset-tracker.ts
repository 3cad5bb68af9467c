/**
 * Which offset of one partition may be committed. Messages finish out of order (other tasks go
 * ahead of one that waits for a retry or a slow handler), so the committed offset is the lowest
 * offset not yet finished: everything before it is done, and a restart redelivers from there.
 * Offsets are begun in increasing order, so the lowest unfinished one is found at the front.
 */
export class OffsetTracker {
  /** Begun offsets, increasing, from `head` on; the front ones may be finished already. */
  private readonly begun: bigint[] = [];
  private head = 0;
  private readonly finished = new Set<bigint>();
  private next: bigint | undefined;

  /** Notes that `offset` was received and is not finished yet; offsets come in increasing order. */
  begin(offset: bigint): void {
    if (this.next !== undefined && offset < this.next) {
      throw new Error(`offset ${offset} begun after ${this.next - 1n}`);
    }
    this.begun.push(offset);
    this.next = offset + 1n;
  }

  /** True when `offset` was received before: a redelivery after a rebalance, for instance. */
  hasReceived(offset: bigint): boolean {
    return this.next !== undefined && offset < this.next;
  }

  finish(offset: bigint): void {
    this.finished.add(offset);
  }

  /** The lowest unfinished offset, else the one after the last received; undefined before anything was. */
  committable(): bigint | undefined {
    while (this.head < this.begun.length && this.finished.delete(this.begun[this.head] as bigint)) this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.begun.length) {
      this.begun.splice(0, this.head);
      this.head = 0;
    }
    return this.begun[this.head] ?? this.next;
  }

  get unfinishedCount(): number {
    return this.begun.length - this.head - this.finished.size;
  }
}
