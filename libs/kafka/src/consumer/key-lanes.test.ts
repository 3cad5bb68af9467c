import { describe, expect, it } from 'vitest';
import { KeyLanes } from './key-lanes.js';

describe('KeyLanes', () => {
  it('starts the first item of each key at once and the rest of a key in order, one at a time', () => {
    const lanes = new KeyLanes<string>();
    expect(lanes.push('a', 'a1')).toBe(true);
    expect(lanes.push('b', 'b1')).toBe(true);
    expect(lanes.push('a', 'a2')).toBe(false);
    expect(lanes.push('a', 'a3')).toBe(false);
    expect(lanes.waitingCount).toBe(2);
    expect(lanes.advance('a')).toBe('a2');
    expect(lanes.advance('b')).toBeUndefined();
    expect(lanes.advance('a')).toBe('a3');
    expect(lanes.advance('a')).toBeUndefined();
    expect(lanes.keyCount).toBe(0);
    expect(lanes.push('a', 'a4')).toBe(true);
  });
});
