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
});
