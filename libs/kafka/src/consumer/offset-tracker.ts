/**
 * Which offset of one partition may be committed. Messages finish out of order (other tasks go
 * ahead of one that waits for a retry or a slow handler), so the committed offset is the lowest
 * offset not yet finished: everything before it is done, and a restart redelivers from there.
 * Offsets are begun in increasing order, so the lowest unfinished one is found at the front.
 *
 * Offsets are numbers, not bigints: every message passes through here several times, and a bigint
 * is a heap object per value and per sum. A partition's offsets stay exact as numbers up to 2^53,
 * which a partition written at a million records a second reaches after 285 years.
 */
export class OffsetTracker {
  /** Begun offsets, increasing, from `head` on; the front ones may be finished already. */
  private readonly begun: number[] = [];
  private head = 0;
  private readonly finished = new Set<number>();
  private next: number | undefined;

  /** `from`: the offset reading starts at (the committed one), when known; before it everything counts as received. */
  constructor(from?: number) {
    if (from !== undefined && (!Number.isSafeInteger(from) || from < 0))
      throw new RangeError(`offset ${from} is not a safe integer`);
    this.next = from;
  }

  /** Notes that `offset` was received and is not finished yet; offsets come in increasing order. */
  begin(offset: number): void {
    if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError(`offset ${offset} is not a safe integer`);
    if (this.next !== undefined && offset < this.next) {
      throw new Error(`offset ${offset} begun after ${this.next - 1}`);
    }
    this.begun.push(offset);
    this.next = offset + 1;
  }

  /** True when `offset` was received before: a redelivery after a rebalance, for instance. */
  hasReceived(offset: number): boolean {
    return this.next !== undefined && offset < this.next;
  }

  /**
   * Notes that a fetch ended, from `first` to `last`, in offsets it does not hand over (the commit
   * marker of a transaction, records of an aborted one), after any records it did. Once everything
   * received is finished, the committable offset is past them, as a Java consumer's position is:
   * a partition written by transactions otherwise lags by its last marker for ever. Ignored when
   * `first` lies beyond the next offset expected: offsets before it were not received.
   */
  skipThrough(first: number, last: number): void {
    if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last) || first < 0 || last < first) {
      throw new RangeError(`offsets ${first} to ${last} are not a range of safe integers`);
    }
    if (this.next !== undefined && first > this.next) return;
    if (this.next === undefined || last + 1 > this.next) this.next = last + 1;
  }

  finish(offset: number): void {
    this.finished.add(offset);
  }

  /** The lowest unfinished offset, else the one after the last received; undefined before anything was. */
  committable(): number | undefined {
    while (this.head < this.begun.length && this.finished.delete(this.begun[this.head] as number)) this.head += 1;
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
