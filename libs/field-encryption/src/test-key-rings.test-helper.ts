import { randomBytes } from 'node:crypto';
import { fixedKeyRing, type KeyRingSource } from './key-ring.js';

/** A fixed ring of fresh keys, the first id primary. */
export function ringOf(...keyIds: string[]): { source: KeyRingSource; keys: Map<string, Buffer> } {
  return ringWith(new Map(keyIds.map((keyId) => [keyId, randomBytes(32)])), keyIds[0]!);
}

export function ringWith(
  keys: Map<string, Buffer>,
  primaryId: string,
): { source: KeyRingSource; keys: Map<string, Buffer> } {
  return { source: fixedKeyRing({ primaryId, keys }), keys };
}
