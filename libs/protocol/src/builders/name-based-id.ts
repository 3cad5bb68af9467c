import { createHash } from 'node:crypto';

/** Baton's namespace for name-based message ids (a random v4 UUID, fixed forever). */
export const BATON_ID_NAMESPACE = '3f1c0e52-9b7d-4a8e-8c35-6d2f4b1a9e07';

/**
 * An RFC 4122 version-5 UUID: the same name always gives the same id. A message that several
 * instances may produce for one cause (an operator's answer to one request) gets an id derived
 * from that cause, so the copies collapse into one under message_id deduplication.
 */
export function nameBasedUuid(name: string, namespace: string = BATON_ID_NAMESPACE): string {
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50;
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
