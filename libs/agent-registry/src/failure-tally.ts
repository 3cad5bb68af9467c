/** How far back an instance's heartbeats count its failures. */
export const FAILURE_WINDOW_MS = 60_000;

/** What a heartbeat says of an instance's recent failures: how many of each code in the window before it. */
export interface RecentFailures {
  window_ms: number;
  counts: Record<string, number>;
}

/**
 * Failures of what an agent depends on (its model, its tools), by error code, over the last
 * `windowMs`: its heartbeats carry the counts, so the overview can say an agent's model is down
 * while its handoffs wait in retries, with nothing dead-lettered yet. Counted per second, so a
 * storm of failures weighs at most one entry a second per code.
 */
export class FailureTally {
  private readonly seconds = new Map<string, { second: number; count: number }[]>();

  constructor(
    private readonly windowMs: number = FAILURE_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  note(code: string): void {
    const second = Math.floor(this.now() / 1_000);
    const buckets = this.seconds.get(code) ?? [];
    const last = buckets.at(-1);
    if (last?.second === second) last.count += 1;
    else buckets.push({ second, count: 1 });
    this.seconds.set(code, buckets);
    this.prune(code, buckets);
  }

  /** The counts within the window, each code with at least one; undefined when there are none. */
  recent(): RecentFailures | undefined {
    const counts: Record<string, number> = {};
    for (const [code, buckets] of this.seconds) {
      this.prune(code, buckets);
      const count = buckets.reduce((sum, bucket) => sum + bucket.count, 0);
      if (count > 0) counts[code] = count;
    }
    return Object.keys(counts).length === 0 ? undefined : { window_ms: this.windowMs, counts };
  }

  private prune(code: string, buckets: { second: number; count: number }[]): void {
    const oldest = Math.floor((this.now() - this.windowMs) / 1_000);
    while (buckets.length > 0 && (buckets[0] as { second: number }).second <= oldest) buckets.shift();
    if (buckets.length === 0) this.seconds.delete(code);
  }
}
