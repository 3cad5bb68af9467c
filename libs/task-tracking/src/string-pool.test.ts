import { describe, expect, it } from 'vitest';
import { StringPool } from './string-pool.js';

/** A copy of `text` that is a different string object (what a decoder hands over). */
function freshCopy(text: string): string {
  return Buffer.from(text).toString();
}

describe('StringPool', () => {
  it('hands back the first copy of an equal string', () => {
    const pool = new StringPool();
    const first = pool.intern(freshCopy('bench_agent'));
    expect(pool.intern(freshCopy('bench_agent'))).toBe(first);
    expect(pool.intern(undefined)).toBeUndefined();
    expect(pool.size).toBe(1);
  });

  it('passes long strings through without pooling them', () => {
    const pool = new StringPool(10, 4);
    expect(pool.intern('longer than four')).toBe('longer than four');
    expect(pool.size).toBe(0);
  });

  it('starts afresh at its bound, and pools recurring values again', () => {
    const pool = new StringPool(3);
    for (const value of ['a', 'b', 'c']) pool.intern(value);
    expect(pool.size).toBe(3);
    pool.intern('d');
    expect(pool.size).toBe(1);
    pool.intern('a');
    expect(pool.size).toBe(2);
  });
});
