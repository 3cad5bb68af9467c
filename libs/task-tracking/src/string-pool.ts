/**
 * One copy of each string that recurs from event to event. A decoded record brings a fresh copy of
 * every string it holds (Avro decoding, then the parsed copy), and a TaskBook keeps every event it
 * reads: without a pool, the tracker held its agent ids, handoff types, outcomes and task ids once
 * per event, over a third of what a timeline entry weighed (issue 10: 654 bytes an event, 413
 * pooled). Strings are compared by content, so nothing a reader can see changes.
 *
 * Bounded: once `maxEntries` distinct values are pooled the pool starts afresh, so free text (a
 * detail that differs every time) costs at most the bound and never keeps recurring values from
 * being pooled again. Strings longer than `maxLength` are passed through: they rarely recur.
 */
export class StringPool {
  private readonly values = new Map<string, string>();

  constructor(
    private readonly maxEntries = 4_096,
    private readonly maxLength = 128,
  ) {}

  /** The pooled copy of `value` (pooled now if new); undefined stays undefined. */
  intern<T extends string | undefined>(value: T): T {
    if (value === undefined || value.length > this.maxLength) return value;
    const pooled = this.values.get(value);
    if (pooled !== undefined) return pooled as T;
    if (this.values.size >= this.maxEntries) this.values.clear();
    this.values.set(value, value);
    return value;
  }

  /** Distinct values pooled now. */
  get size(): number {
    return this.values.size;
  }
}
