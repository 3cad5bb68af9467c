import { describe, expect, it } from 'vitest';
import { ExpiringIdSet } from './expiring-id-set.js';

describe('ExpiringIdSet', () => {
  it('remembers ids within the retention and forgets older ones as newer arrive', () => {
    const ids = new ExpiringIdSet(1_000);
    ids.add('a', 0);
    ids.add('b', 500);
    expect(ids.has('a')).toBe(true);
    ids.add('c', 1_200);
    expect(ids.has('a')).toBe(false);
    expect(ids.has('b')).toBe(true);
    expect(ids.size).toBe(2);
  });

  it('keeps an id seen again for another full retention', () => {
    const ids = new ExpiringIdSet(1_000);
    ids.add('a', 0);
    ids.add('b', 100);
    ids.add('a', 900);
    ids.add('c', 1_500);
    expect(ids.has('b')).toBe(false);
    expect(ids.has('a')).toBe(true);
  });

  it('forgets by age however ids were re-added and removed on the way', () => {
    const ids = new ExpiringIdSet(1_000);
    ids.add('a', 0);
    ids.add('b', 100);
    ids.add('a', 200); // the oldest moves to the back: b is first now
    ids.delete('b');
    ids.delete('a'); // empty
    ids.add('c', 5_000);
    ids.add('d', 5_500);
    ids.add('e', 6_100); // c is past the retention, d is not
    expect([ids.has('c'), ids.has('d'), ids.has('e')]).toEqual([false, true, true]);
    ids.add('f', 20_000);
    expect(ids.size).toBe(1);
  });

  it('remembers at most maxIds, forgetting the oldest first', () => {
    const ids = new ExpiringIdSet(1_000, 3);
    ids.add('a', 0);
    ids.add('b', 1);
    ids.add('c', 2);
    ids.add('a', 3); // seen again: the newest now, b the oldest
    ids.add('d', 4);
    expect(['a', 'b', 'c', 'd'].map((id) => ids.has(id))).toEqual([true, false, true, true]);
    expect(ids.size).toBe(3);
    ids.add('e', 1_500); // c and d are past the retention as well
    expect(['a', 'c', 'd', 'e'].map((id) => ids.has(id))).toEqual([false, false, false, true]);
  });
});
