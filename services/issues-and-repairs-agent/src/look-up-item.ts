import { createHash } from 'node:crypto';

/**
 * Seed 002's look_up_item(search_query), which always answers item_132612938, made to tell items
 * apart: the same description (whatever its case and spacing) always gives the same id, in the
 * seed's form `item_` and nine digits.
 */
export function lookUpItem(searchQuery: string): string {
  const normalised = searchQuery.trim().toLowerCase().replace(/\s+/g, ' ');
  const digest = createHash('sha256').update(normalised).digest();
  return `item_${String(digest.readUInt32BE(0) % 1_000_000_000).padStart(9, '0')}`;
}
