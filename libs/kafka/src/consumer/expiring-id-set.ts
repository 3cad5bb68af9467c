/**
 * Message ids remembered for as long as the processed-id topic keeps them: the topic deletes
 * markers after its retention, so memory forgets them too instead of growing for the life of the
 * process. Ids arrive in about time order, so the oldest are at the front of the map.
 */
export class ExpiringIdSet {
  private readonly seenAt = new Map<string, number>();

  constructor(private readonly retentionMs: number) {}

  has(id: string): boolean {
    return this.seenAt.has(id);
  }

  add(id: string, atMs: number): void {
    // Re-inserted so the map stays in the order ids were last seen.
    this.seenAt.delete(id);
    this.seenAt.set(id, atMs);
    this.forgetBefore(atMs - this.retentionMs);
  }

  delete(id: string): void {
    this.seenAt.delete(id);
  }

  get size(): number {
    return this.seenAt.size;
  }

  private forgetBefore(cutoffMs: number): void {
    for (const [id, atMs] of this.seenAt) {
      if (atMs >= cutoffMs) return;
      this.seenAt.delete(id);
    }
  }
}
