/**
 * A Map in the order its keys were last set (`set` moves a key to the back), which gives up its
 * least recently set entry in constant time: the bounded caches of tasks, replies and tool calls.
 *
 * They used to take the first entry with `keys().next()` of a Map they re-inserted into. V8 leaves
 * a deleted entry in place until the table is rebuilt, and a new iterator steps over every one of
 * them from the front: at a bound of 100,000 tasks, an event of a known task and a new task cost
 * 12-52 us together, against 1.3 us with one iterator kept. A Map iterator is live by the
 * language's definition (it sees entries added after it, skips those deleted), and every entry
 * behind this one's position was taken out by `shift`, so the next it yields is the oldest.
 */
export class RecencyMap<K, V> extends Map<K, V> {
  private cursor: MapIterator<[K, V]> | undefined;

  override set(key: K, value: V): this {
    super.delete(key);
    return super.set(key, value);
  }

  /** Takes out the least recently set entry; undefined when the map is empty. */
  shift(): [K, V] | undefined {
    if (this.size === 0) return undefined;
    this.cursor ??= this.entries();
    let next = this.cursor.next();
    // An iterator that reached the end once stays done, entries added since or not.
    if (next.done === true) {
      this.cursor = this.entries();
      next = this.cursor.next();
    }
    const entry = next.value as [K, V];
    super.delete(entry[0]);
    return entry;
  }
}
