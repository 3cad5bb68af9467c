/**
 * Which offset of one partition may be committed. Messages finish out of order when one is parked
 * for a retry while later ones of other tasks go ahead, so the committed offset is the lowest
 * offset not yet finished: everything before it is done, and a restart redelivers from there.
 */
export class OffsetTracker {
  private readonly unfinished = new Set<bigint>();
  private next: bigint | undefined;

  /** Notes that `offset` was received and is not finished yet. */
  begin(offset: bigint): void {
    this.unfinished.add(offset);
    if (this.next === undefined || offset >= this.next) this.next = offset + 1n;
  }

  finish(offset: bigint): void {
    this.unfinished.delete(offset);
  }

  /**
   * The offset to commit once `finishing` is finished too: the lowest unfinished offset other than
   * it, else the one after the last received. Undefined before anything was received.
   */
  committableAfter(finishing?: bigint): bigint | undefined {
    let lowest: bigint | undefined;
    for (const offset of this.unfinished) {
      if (offset !== finishing && (lowest === undefined || offset < lowest)) lowest = offset;
    }
    return lowest ?? this.next;
  }

  get unfinishedCount(): number {
    return this.unfinished.size;
  }
}
