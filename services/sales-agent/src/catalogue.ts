export interface CatalogueItem {
  product: string;
  /** Whole US dollars, as the execute_order(product, price: int) tool takes it ("Price should be in USD"). */
  priceUsd: number;
  /** Words that name the product in a customer's request. */
  keywords: readonly string[];
}

/** What ACME sells: roadrunner-catching gadgets, and the mesh kit of the protocol examples. */
export const CATALOGUE: readonly CatalogueItem[] = [
  { product: 'RouterX-Pro mesh kit', priceUsd: 299, keywords: ['mesh', 'routerx', 'routerx-pro', 'router'] },
  { product: 'ACME Rocket Skates', priceUsd: 1200, keywords: ['skates', 'rocket', 'roller'] },
  { product: 'ACME Giant Magnet', priceUsd: 350, keywords: ['magnet'] },
  { product: 'ACME Anvil', priceUsd: 80, keywords: ['anvil'] },
  { product: 'ACME Bird Seed', priceUsd: 15, keywords: ['bird seed', 'birdseed', 'seed'] },
];

function mentions(text: string, keyword: string): boolean {
  const escaped = keyword.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![a-z0-9])${escaped}s?(?![a-z0-9])`).test(text);
}

/**
 * The product the customer asks for: the first text (most specific first) that names one decides,
 * and within a text the catalogue's order does.
 */
export function findProduct(texts: readonly string[]): CatalogueItem | undefined {
  for (const text of texts) {
    const lower = text.toLowerCase().replace(/\s+/g, ' ');
    const item = CATALOGUE.find(({ keywords }) => keywords.some((keyword) => mentions(lower, keyword)));
    if (item !== undefined) return item;
  }
  return undefined;
}
