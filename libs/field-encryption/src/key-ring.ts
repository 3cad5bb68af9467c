import { BatonError } from '@baton/errors';

/** AES-256: every key of the ring is 32 bytes. */
export const KEY_BYTES = 32;

/** Key ids travel inside every encrypted value, between `:` separators. */
const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The keys that wrap data keys: the primary wraps every new one, every listed key unwraps. Rotation
 * is adding a key, making it primary, and removing the old one once nothing encrypted under it is
 * still read (retention of the topics and DLQs, the audit log).
 */
export interface KeyRing {
  primaryId: string;
  keys: ReadonlyMap<string, Buffer>;
}

/** What a stage reads its keys from: a fixed ring, or a file re-read as it changes. */
export interface KeyRingSource {
  /** The key new values are encrypted under. */
  primary(): { keyId: string; key: Buffer };
  /** The key of `keyId`; undefined when the ring has none (after any re-read the source allows). */
  key(keyId: string): Buffer | undefined;
}

function invalid(source: string, message: string, pointer: string): BatonError {
  return new BatonError('CONFIG_INVALID', `the key ring ${source} ${message}`, {
    path: pointer,
    details: { source },
  });
}

/**
 * Reads `{"primary": "<key_id>", "keys": [{"key_id": "<id>", "key": "<base64 of 32 bytes>"}]}`.
 * A malformed ring is CONFIG_INVALID naming `source` and the JSON Pointer of the bad entry, never
 * a key's content.
 */
export function parseKeyRing(text: string, source: string): KeyRing {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalid(source, 'is not JSON', '');
  }
  const ring = json as { primary?: unknown; keys?: unknown };
  if (typeof json !== 'object' || json === null || !Array.isArray(ring.keys) || ring.keys.length === 0) {
    throw invalid(source, 'must be an object with a non-empty keys array', '/keys');
  }
  const keys = new Map<string, Buffer>();
  ring.keys.forEach((entry: unknown, index) => {
    const { key_id: keyId, key } = (entry ?? {}) as { key_id?: unknown; key?: unknown };
    if (typeof keyId !== 'string' || !KEY_ID.test(keyId)) {
      throw invalid(
        source,
        `entry ${index} has no key_id of 1-64 letters, digits, '.', '_' or '-'`,
        `/keys/${index}/key_id`,
      );
    }
    if (keys.has(keyId)) throw invalid(source, `lists key_id ${keyId} twice`, `/keys/${index}/key_id`);
    const bytes =
      typeof key === 'string' && /^[A-Za-z0-9+/_-]+={0,2}$/.test(key) ? Buffer.from(key, 'base64') : undefined;
    if (bytes?.length !== KEY_BYTES) {
      throw invalid(source, `key ${keyId} is not the base64 of ${KEY_BYTES} bytes`, `/keys/${index}/key`);
    }
    keys.set(keyId, bytes);
  });
  if (typeof ring.primary !== 'string' || !keys.has(ring.primary)) {
    throw invalid(source, 'must name one of its key ids as primary', '/primary');
  }
  return { primaryId: ring.primary, keys };
}

/** A source over a ring that never changes (tests, tools). */
export function fixedKeyRing(ring: KeyRing): KeyRingSource {
  return {
    primary: () => ({ keyId: ring.primaryId, key: ring.keys.get(ring.primaryId)! }),
    key: (keyId) => ring.keys.get(keyId),
  };
}
