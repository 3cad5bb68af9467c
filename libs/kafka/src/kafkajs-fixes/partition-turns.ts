/**
 * Thrown to a send that names a partition whose sequence number its producer no longer knows: an
 * earlier send to it failed for good, and whether the broker wrote that batch is unknown. Nothing
 * of the send was sent. The producer must be replaced (a new producer id starts every partition's
 * sequence anew); RecordProducer does so and sends it again.
 */
export class SequenceUnresolvedError extends Error {
  override readonly name = 'KafkaJSSequenceUnresolved';
  readonly retriable = false;

  constructor(readonly partitions: readonly string[]) {
    super(
      `the sequence numbers of ${partitions.join(', ')} are unknown after a failed send: the producer must be replaced`,
    );
  }
}

export function isSequenceUnresolved(error: unknown): error is SequenceUnresolvedError {
  return error instanceof SequenceUnresolvedError;
}

/**
 * One producer's partitions, each sent to by one send at a time, from its first attempt to its
 * last retry, in the order the sends asked. An idempotent producer gives a batch the partition's
 * next sequence number when a request leaves and takes it back when the request fails; a second
 * send to the partition meanwhile would take the same number, and the broker answers a batch whose
 * number it already wrote as a duplicate, with success. A partition whose send failed for good is
 * unresolved: no later send is let through to it.
 *
 * Keys are opaque (`topic\0partition`); a send takes all of its keys, in sorted order, so two
 * sends that share several partitions cannot each wait for the other.
 */
export class PartitionTurns {
  /** Per key, settled when the last send to have asked for it is done. */
  private readonly tails = new Map<string, Promise<void>>();
  private readonly unresolved = new Set<string>();

  /**
   * Waits for the turn of every key, then returns what gives them up. Rejects with
   * SequenceUnresolvedError, holding none, when a key is unresolved.
   */
  async take(keys: Iterable<string>): Promise<() => void> {
    const sorted = [...keys].sort();
    const releases: (() => void)[] = [];
    const giveUp = () => {
      for (const release of releases) release();
    };
    try {
      for (const key of sorted) {
        const previous = this.tails.get(key);
        let release!: () => void;
        const mine = new Promise<void>((resolve) => (release = resolve));
        this.tails.set(key, mine);
        releases.push(() => {
          release();
          if (this.tails.get(key) === mine) this.tails.delete(key);
        });
        if (previous !== undefined) await previous;
      }
      const unresolved = sorted.filter((key) => this.unresolved.has(key));
      if (unresolved.length > 0) throw new SequenceUnresolvedError(unresolved.map(readableKey));
    } catch (error) {
      giveUp();
      throw error;
    }
    return giveUp;
  }

  /** Marks `keys` unresolved: a send to one of them failed for good while holding its turn. */
  markUnresolved(keys: Iterable<string>): void {
    for (const key of keys) this.unresolved.add(key);
  }
}

/** `topic\0partition` as `topic-partition`, as Kafka names a partition. */
function readableKey(key: string): string {
  return key.replace('\u0000', '-');
}
