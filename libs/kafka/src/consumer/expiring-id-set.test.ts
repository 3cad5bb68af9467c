import fc from 'fast-check';
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

  it('forgets the oldest at its bound add after add, past many ids forgotten and its queue grown and compacted', () => {
    const ids = new ExpiringIdSet(Number.POSITIVE_INFINITY, 1_000);
    for (let index = 0; index < 50_000; index++) ids.add(`id-${index}`, index);
    expect(ids.size).toBe(1_000);
    expect(ids.has('id-48999')).toBe(false);
    expect(ids.has('id-49000')).toBe(true);
    expect(ids.has('id-49999')).toBe(true);
  });

  it('answers as a list of (id, time) in the order last added does, whatever the adds, deletes and bound', () => {
    type Step = { kind: 'add'; id: number; advanceMs: number } | { kind: 'delete'; id: number };
    const step: fc.Arbitrary<Step> = fc.oneof(
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('add' as const), id: fc.nat(40), advanceMs: fc.nat(30) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), id: fc.nat(40) }) },
    );
    // A bound or retention that never forgets leaves the entries of ids added again or deleted in
    // the queue until it is full: its growth then drops them.
    const retention = fc.constantFrom(300, Number.POSITIVE_INFINITY);
    const bound = fc.oneof(fc.integer({ min: 1, max: 50 }), fc.constant(Number.POSITIVE_INFINITY));
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 50, maxLength: 400, size: 'max' }),
        retention,
        bound,
        (steps, retentionMs, maxIds) => {
          const ids = new ExpiringIdSet(retentionMs, maxIds);
          // The reference: the ids with their times, oldest first, an id added again moved to the back.
          let model: { id: string; atMs: number }[] = [];
          let now = 0;
          for (const next of steps) {
            const id = `m${next.id}`;
            if (next.kind === 'delete') {
              ids.delete(id);
              model = model.filter((entry) => entry.id !== id);
            } else {
              now += next.advanceMs;
              ids.add(id, now);
              model = [...model.filter((entry) => entry.id !== id), { id, atMs: now }];
              // Forgotten from the front while the first is past the retention, then down to the bound.
              while (model.length > 0 && (model[0] as { atMs: number }).atMs < now - retentionMs) model.shift();
              while (model.length > maxIds) model.shift();
            }
            expect(ids.size).toBe(model.length);
          }
          for (let index = 0; index <= 40; index++) {
            expect(ids.has(`m${index}`)).toBe(model.some((entry) => entry.id === `m${index}`));
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
