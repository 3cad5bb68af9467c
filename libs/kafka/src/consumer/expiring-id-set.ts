/**
 * Message ids remembered for as long as the processed-id topic keeps them: the topic deletes
 * markers after its retention, so memory forgets them too instead of growing for the life of the
 * process. And at most `maxIds` of them, the oldest forgotten first: an id costs about 90 bytes of
 * heap, so a week of a busy partition's ids would outgrow any service's memory. Ids arrive in about
 * time order, so the oldest are at the front of the queue.
 *
 * The order is a queue of its own beside the map, so forgetting the oldest costs the same at any
 * size. It was the map's own order, read with `keys().next()`; but V8 leaves a deleted entry in
 * place until the table is rebuilt, and an iterator steps over every one of them from the front,
 * so a set at its bound of 100,000 ids took 40 us per add (3 us just after reaching it, growing
 * with every id forgotten) where one below its bound took 1 us.
 */
export class ExpiringIdSet {
  /** Each id remembered, with the sequence number of its newest entry in the queue. */
  private readonly entryOf = new Map<string, number>();
  /**
   * The queue: ids by sequence number, at `sequence & mask`, with when each was added; from `head`
   * (the oldest) to `tail`. An id added again, or deleted, leaves its older entry behind, which is
   * skipped when it reaches the front.
   */
  private ids: (string | undefined)[] = new Array<string | undefined>(16);
  private times = new Float64Array(16);
  private mask = 15;
  private head = 0;
  private tail = 0;

  constructor(
    private readonly retentionMs: number,
    private readonly maxIds = Number.POSITIVE_INFINITY,
  ) {}

  has(id: string): boolean {
    return this.entryOf.has(id);
  }

  add(id: string, atMs: number): void {
    if (this.tail - this.head > this.mask) this.grow();
    const sequence = this.tail++;
    this.ids[sequence & this.mask] = id;
    this.times[sequence & this.mask] = atMs;
    this.entryOf.set(id, sequence);
    const cutoffMs = atMs - this.retentionMs;
    while (this.head < this.tail && (this.times[this.head & this.mask] as number) < cutoffMs) this.dropOldest();
    while (this.entryOf.size > this.maxIds) this.dropOldest();
  }

  delete(id: string): void {
    this.entryOf.delete(id);
  }

  get size(): number {
    return this.entryOf.size;
  }

  /** Takes the front entry off the queue, and its id out of the set unless it was added again since. */
  private dropOldest(): void {
    const sequence = this.head++;
    const index = sequence & this.mask;
    const id = this.ids[index] as string;
    this.ids[index] = undefined;
    if (this.entryOf.get(id) === sequence) this.entryOf.delete(id);
  }

  /** Doubles the queue, or first drops the entries of ids added again or deleted, if they are half of it. */
  private grow(): void {
    const length = this.mask + 1;
    const stale = length - this.entryOf.size;
    const capacity = stale >= length / 2 ? length : length * 2;
    const ids = new Array<string | undefined>(capacity);
    const times = new Float64Array(capacity);
    let tail = 0;
    for (let sequence = this.head; sequence < this.tail; sequence++) {
      const id = this.ids[sequence & this.mask] as string;
      if (this.entryOf.get(id) !== sequence) continue;
      ids[tail] = id;
      times[tail] = this.times[sequence & this.mask] as number;
      this.entryOf.set(id, tail++);
    }
    this.ids = ids;
    this.times = times;
    this.mask = capacity - 1;
    this.head = 0;
    this.tail = tail;
  }
}
