/**
 * Message ids remembered for as long as the processed-id topic keeps them: the topic deletes
 * markers after its retention, so memory forgets them too instead of growing for the life of the
 * process. And at most `maxIds` of them, the oldest forgotten first: an id costs about 90 bytes of
 * heap, so a week of a busy partition's ids would outgrow any service's memory. Ids arrive in about
 * time order, so the oldest are at the front of the map.
 */
export class ExpiringIdSet {
  private readonly seenAt = new Map<string, number>();
  /**
   * At most the time of the map's first (oldest) entry: while it is within the retention nothing
   * is, so an add looks no further. Looking at the first entry itself took an iterator and an
   * entry array on every add, and every message a service commits adds its id.
   */
  private oldestAt = Number.POSITIVE_INFINITY;

  constructor(
    private readonly retentionMs: number,
    private readonly maxIds = Number.POSITIVE_INFINITY,
  ) {}

  has(id: string): boolean {
    return this.seenAt.has(id);
  }

  add(id: string, atMs: number): void {
    // Re-inserted so the map stays in the order ids were last seen: an entry moved to the back
    // leaves a newer one first, which oldestAt still bounds from below.
    this.seenAt.delete(id);
    this.seenAt.set(id, atMs);
    if (this.seenAt.size === 1) this.oldestAt = atMs;
    const cutoffMs = atMs - this.retentionMs;
    if (this.oldestAt < cutoffMs) this.forgetBefore(cutoffMs);
    // oldestAt stays a lower bound of the first entry's time when that entry goes.
    if (this.seenAt.size > this.maxIds) this.seenAt.delete(this.seenAt.keys().next().value as string);
  }

  delete(id: string): void {
    this.seenAt.delete(id);
  }

  get size(): number {
    return this.seenAt.size;
  }

  private forgetBefore(cutoffMs: number): void {
    for (const [id, atMs] of this.seenAt) {
      if (atMs >= cutoffMs) {
        this.oldestAt = atMs;
        return;
      }
      this.seenAt.delete(id);
    }
    this.oldestAt = Number.POSITIVE_INFINITY;
  }
}
