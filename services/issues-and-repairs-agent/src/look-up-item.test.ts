import { describe, expect, it } from 'vitest';
import { lookUpItem } from './look-up-item.js';

describe('lookUpItem', () => {
  it('gives the same description the same id in the form item_ and nine digits', () => {
    expect(lookUpItem('shoes')).toBe('item_032136669');
    expect(lookUpItem('  SHOES ')).toBe('item_032136669');
  });

  it('tells different descriptions apart', () => {
    expect(lookUpItem('a pair of shoes')).toMatch(/^item_\d{9}$/);
    expect(lookUpItem('a pair of shoes')).not.toBe(lookUpItem('shoes'));
  });
});
