import { randomBytes } from 'node:crypto';
import { KEY_BYTES } from './key-ring.js';

export interface KeyRingEntry {
  key_id: string;
  key: string;
}

/** A fresh key under `keyId`, as a key ring file lists it. */
export function generateKeyRingEntry(keyId: string): KeyRingEntry {
  return { key_id: keyId, key: randomBytes(KEY_BYTES).toString('base64') };
}

/** The text of a key ring file whose primary is its first entry. */
export function keyRingFileText(entries: readonly KeyRingEntry[], primary = entries[0]!.key_id): string {
  return `${JSON.stringify({ primary, keys: entries }, null, 2)}\n`;
}
