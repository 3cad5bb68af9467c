/** A partition, as `<topic>:<partition>`. */
export type PartitionKey = string;

export function partitionKey(topic: string, partition: number): PartitionKey {
  return `${topic}:${partition}`;
}

/** The topic and partition of a key; Kafka's topic names have no colon. */
export function parsePartitionKey(key: PartitionKey): { topic: string; partition: number } {
  const colon = key.lastIndexOf(':');
  return { topic: key.slice(0, colon), partition: Number(key.slice(colon + 1)) };
}

interface PendingRead {
  /** The partitions still short of their target, to the offset each must reach. */
  remaining: Map<PartitionKey, bigint>;
  done(): void;
}

/**
 * Where a reader has got to in each partition (the offset after the last one it read, from its
 * batches, so a transaction's commit marker counts though it is never delivered), and the reads
 * waiting for it to get to given offsets.
 */
export class ReadProgress {
  private readonly positions = new Map<PartitionKey, bigint>();
  private readonly reads = new Set<PendingRead>();

  /** The partitions of `ends` not read up to their end offset yet. */
  behind(ends: ReadonlyMap<PartitionKey, bigint>): Map<PartitionKey, bigint> {
    return new Map([...ends].filter(([key, end]) => (this.positions.get(key) ?? 0n) < end));
  }

  /**
   * Calls `done` once every partition of `targets` has been read up to its offset (at once when
   * none is behind); returns a function that drops the read unfinished.
   */
  wait(targets: ReadonlyMap<PartitionKey, bigint>, done: () => void): () => void {
    const read: PendingRead = { remaining: this.behind(targets), done };
    if (read.remaining.size === 0) {
      done();
      return () => undefined;
    }
    this.reads.add(read);
    return () => this.reads.delete(read);
  }

  /** Whether a read waits for `key`. */
  wanted(key: PartitionKey): boolean {
    return [...this.reads].some((read) => read.remaining.has(key));
  }

  /** The partitions some read waits for. */
  wantedKeys(): Set<PartitionKey> {
    return new Set([...this.reads].flatMap((read) => [...read.remaining.keys()]));
  }

  /** A batch of `key` was read: `next` is the offset after its last. Finishes the reads it completes. */
  advanced(key: PartitionKey, next: bigint): void {
    if (next > (this.positions.get(key) ?? 0n)) this.positions.set(key, next);
    for (const read of [...this.reads]) {
      const target = read.remaining.get(key);
      if (target === undefined || next < target) continue;
      read.remaining.delete(key);
      if (read.remaining.size > 0) continue;
      this.reads.delete(read);
      read.done();
    }
  }

  /** The reader starts again from the beginning (kafkajs does after every rejoin of a group that never commits). */
  restarted(): void {
    this.positions.clear();
  }
}
