import { describe, expect, it } from 'vitest';
import { CATALOGUE, findProduct } from './catalogue.js';

describe('findProduct', () => {
  it('finds a product by any of its words, whatever the case and plural', () => {
    expect(findProduct(['I want the RouterX-Pro mesh kit'])?.product).toBe('RouterX-Pro mesh kit');
    expect(findProduct(['Two ANVILS please'])?.product).toBe('ACME Anvil');
    expect(findProduct(['some bird   seed'])?.product).toBe('ACME Bird Seed');
  });

  it('lets the first text that names a product decide', () => {
    expect(findProduct(['ACME Anvil', 'I also looked at rocket skates'])?.product).toBe('ACME Anvil');
    expect(findProduct(['something nice', 'rocket skates'])?.product).toBe('ACME Rocket Skates');
  });

  it('does not match a word inside another word', () => {
    expect(findProduct(['a magnetic personality'])).toBeUndefined();
    expect(findProduct([])).toBeUndefined();
  });

  it('prices every product in whole dollars', () => {
    for (const item of CATALOGUE) expect(Number.isInteger(item.priceUsd) && item.priceUsd > 0).toBe(true);
  });
});
