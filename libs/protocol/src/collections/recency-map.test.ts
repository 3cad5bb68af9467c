import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecencyMap } from './recency-map.js';

describe('RecencyMap', () => {
  it('gives up its entries in the order their keys were last set', () => {
    const map = new RecencyMap<string, number>();
    map.set('a', 1).set('b', 2).set('c', 3);
    map.set('a', 4); // a moves to the back
    map.delete('b');
    expect(map.shift()).toEqual(['c', 3]);
    expect(map.shift()).toEqual(['a', 4]);
    expect(map.shift()).toBeUndefined();
    expect(map.size).toBe(0);
  });

  it('keeps giving up the oldest after it was emptied and filled again', () => {
    const map = new RecencyMap<string, number>([['a', 1]]);
    expect(map.shift()).toEqual(['a', 1]);
    expect(map.shift()).toBeUndefined();
    map.set('b', 2).set('c', 3);
    expect(map.shift()).toEqual(['b', 2]);
    map.clear();
    map.set('d', 4);
    expect(map.shift()).toEqual(['d', 4]);
  });

  it('shifts as a list in the order last set does, whatever the sets, deletes and shifts', () => {
    type Step = { kind: 'set' | 'delete'; key: number } | { kind: 'shift' };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ kind: fc.constantFrom('set' as const, 'delete' as const), key: fc.nat(30) }),
      fc.record({ kind: fc.constant('shift' as const) }),
    );
    fc.assert(
      fc.property(fc.array(step, { minLength: 20, maxLength: 300, size: 'max' }), (steps) => {
        const map = new RecencyMap<number, number>();
        let model: [number, number][] = [];
        steps.forEach((next, index) => {
          if (next.kind === 'set') {
            map.set(next.key, index);
            model = [...model.filter(([key]) => key !== next.key), [next.key, index]];
          } else if (next.kind === 'delete') {
            expect(map.delete(next.key)).toBe(model.some(([key]) => key === next.key));
            model = model.filter(([key]) => key !== next.key);
          } else {
            expect(map.shift()).toEqual(model.shift());
          }
          expect([...map]).toEqual(model);
        });
      }),
      { numRuns: 200 },
    );
  });
});
