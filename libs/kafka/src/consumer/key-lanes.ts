/**
 * One queue per key (task): a key's records are worked on one at a time, in the order received,
 * while records of other keys go ahead. The head of a lane is the record in progress (or waiting
 * for its retry); the ones behind it wait their turn.
 */
export class KeyLanes<T> {
  private readonly lanes = new Map<string, T[]>();

  /** Queues `item`; true when its lane was empty, so the caller starts it now. */
  push(key: string, item: T): boolean {
    const lane = this.lanes.get(key);
    if (lane) {
      lane.push(item);
      return false;
    }
    this.lanes.set(key, [item]);
    return true;
  }

  /** Removes the head of `key`'s lane; returns the next item to start, if any. */
  advance(key: string): T | undefined {
    const lane = this.lanes.get(key);
    if (!lane) return undefined;
    lane.shift();
    if (lane.length > 0) return lane[0];
    this.lanes.delete(key);
    return undefined;
  }

  /** Items queued behind the heads, waiting for an earlier item of their key. */
  get waitingCount(): number {
    let count = 0;
    for (const lane of this.lanes.values()) count += lane.length - 1;
    return count;
  }

  get keyCount(): number {
    return this.lanes.size;
  }
}
