import { describe, expect, it } from 'vitest';
import { randomId } from './random-id.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('randomId', () => {
  it('makes version 4 UUIDs, all different, across several draws of random bytes', () => {
    // 256 ids a draw: 3,000 ids take twelve draws.
    const ids = Array.from({ length: 3_000 }, () => randomId());
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('spreads every hex digit over every random position', () => {
    const ids = Array.from({ length: 2_000 }, () => randomId());
    for (const position of [0, 9, 15, 20, 35]) {
      expect(new Set(ids.map((id) => id[position])).size).toBe(16);
    }
  });
});
