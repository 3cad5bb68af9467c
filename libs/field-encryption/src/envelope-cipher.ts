import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { BatonError } from '@baton/errors';
import { ENCRYPTED_VALUE_PREFIX } from '@baton/protocol';
import type { KeyRingSource } from './key-ring.js';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const DATA_KEY_BYTES = 32;
const WRAPPED_KEY_BYTES = IV_BYTES + DATA_KEY_BYTES + TAG_BYTES;

/**
 * One message's data key: fresh and random for each sealed message, so the IVs of its fields can
 * simply count (a GCM key never sees an IV twice). `header` is `baton:enc:v1:<key_id>:<wrapped>`,
 * the data key wrapped by the key ring's primary; every field of the message starts with it, so a
 * field copied into another message still carries what decrypts it.
 */
export interface DataKey {
  key: Buffer;
  header: string;
  fieldsSealed: number;
}

function gcmSeal(key: Buffer, iv: Buffer, plain: Buffer, additionalData: string): Buffer {
  const cipher = createCipheriv(ALGORITHM, key, iv);
  cipher.setAAD(Buffer.from(additionalData));
  return Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

/** Throws whatever node:crypto throws on a failed tag; callers turn it into a coded error. */
function gcmOpen(key: Buffer, sealed: Buffer, additionalData: string): Buffer {
  const decipher = createDecipheriv(ALGORITHM, key, sealed.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(additionalData));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
}

/**
 * The wrap's additional data binds the format version and the key id, so a value relabelled with
 * another key id or version fails; it binds no field path, so a value stays valid wherever copied.
 */
function wrapContext(keyId: string): string {
  return `${ENCRYPTED_VALUE_PREFIX}${keyId}`;
}

export function newDataKey(keyRing: KeyRingSource): DataKey {
  const { keyId, key: wrappingKey } = keyRing.primary();
  const key = randomBytes(DATA_KEY_BYTES);
  const wrapped = gcmSeal(wrappingKey, randomBytes(IV_BYTES), key, wrapContext(keyId));
  return { key, header: `${wrapContext(keyId)}:${wrapped.toString('base64url')}`, fieldsSealed: 0 };
}

/**
 * `value`'s JSON (its type survives: a number comes back a number) sealed under the data key. The
 * field's additional data is the whole header, so a body moved under another wrapped key fails.
 */
export function sealValue(value: unknown, dataKey: DataKey): string {
  const iv = Buffer.alloc(IV_BYTES);
  iv.writeUInt32BE(dataKey.fieldsSealed, IV_BYTES - 4);
  dataKey.fieldsSealed += 1;
  const body = gcmSeal(dataKey.key, iv, Buffer.from(JSON.stringify(value)), dataKey.header);
  return `${dataKey.header}:${body.toString('base64url')}`;
}

function unreadable(pointer: string, message: string, keyId?: string): BatonError {
  return new BatonError('PERSONAL_DATA_UNREADABLE', `the personal field at ${pointer || '/'} ${message}`, {
    path: pointer,
    ...(keyId === undefined ? {} : { details: { key_id: keyId } }),
  });
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The clear value of an encrypted field at `pointer` (for the error's path). `dataKeys` caches
 * the unwrapped data keys of one message by header: its fields share one. Fails with
 * PERSONAL_DATA_UNREADABLE: malformed, a key id the ring lacks, a tag that does not verify.
 */
export function openValue(
  text: string,
  keyRing: KeyRingSource,
  dataKeys: Map<string, Buffer>,
  pointer: string,
): unknown {
  const parts = text.slice(ENCRYPTED_VALUE_PREFIX.length).split(':');
  const [keyId, wrapped, body] = parts;
  if (parts.length !== 3 || !keyId || !BASE64URL.test(wrapped!) || !BASE64URL.test(body!)) {
    throw unreadable(pointer, 'is not a well-formed encrypted value');
  }
  const header = `${wrapContext(keyId)}:${wrapped}`;
  let dataKey = dataKeys.get(header);
  if (dataKey === undefined) {
    const wrappingKey = keyRing.key(keyId);
    if (wrappingKey === undefined)
      throw unreadable(pointer, `is encrypted under key id ${keyId}, which the key ring does not have`, keyId);
    const sealedKey = Buffer.from(wrapped!, 'base64url');
    if (sealedKey.length !== WRAPPED_KEY_BYTES)
      throw unreadable(pointer, 'has a wrapped data key of the wrong length', keyId);
    try {
      dataKey = gcmOpen(wrappingKey, sealedKey, wrapContext(keyId));
    } catch {
      throw unreadable(
        pointer,
        `has a data key that does not unwrap with key ${keyId} (tampered, or another key under that id)`,
        keyId,
      );
    }
    dataKeys.set(header, dataKey);
  }
  const sealedBody = Buffer.from(body!, 'base64url');
  if (sealedBody.length < IV_BYTES + TAG_BYTES + 1) throw unreadable(pointer, 'is truncated', keyId);
  let plain: Buffer;
  try {
    plain = gcmOpen(dataKey, sealedBody, header);
  } catch {
    throw unreadable(pointer, 'does not authenticate (tampered, or moved under another data key)', keyId);
  }
  return JSON.parse(plain.toString('utf8')) as unknown;
}
