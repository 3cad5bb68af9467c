import { createHash } from 'node:crypto';

/**
 * A look_up_item(search_query) tool that, instead of always answering item_132612938, tells items
 * apart: the same description (whatever its case and spacing) always gives the same id, in the
 * form `item_` and nine digits.
 */
export function lookUpItem(searchQuery: string): string {
  const normalised = searchQuery.trim().toLowerCase().replace(/\s+/g, ' ');
  const digest = createHash('sha256').update(normalised).digest();
  return `item_${String(digest.readUInt32BE(0) % 1_000_000_000).padStart(9, '0')}`;
}
