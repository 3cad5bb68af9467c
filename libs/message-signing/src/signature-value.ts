import { BatonError } from '@baton/errors';

/** Key ids are names an operator writes: letters, digits, `.`, `_` and `-`. */
export const KEY_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

const ALGORITHM = 'ed25519';
const ED25519_SIGNATURE_BYTES = 64;

/** A signature as it travels: `ed25519:<key id>:<64 signature bytes in unpadded base64url>`. */
export interface SignatureValue {
  keyId: string;
  signature: Buffer;
}

export function formatSignature({ keyId, signature }: SignatureValue): string {
  return `${ALGORITHM}:${keyId}:${signature.toString('base64url')}`;
}

/** Reads a signature field; anything not of the form above is SIGNATURE_INVALID at `path`. */
export function parseSignature(text: string, path: string): SignatureValue {
  const [algorithm, keyId, encoded, ...rest] = text.split(':');
  const invalid = (why: string) =>
    new BatonError('SIGNATURE_INVALID', `the signature ${why}; expected ed25519:<key id>:<base64url signature>`, {
      path,
    });
  if (rest.length > 0 || encoded === undefined || keyId === undefined) throw invalid('is not in three parts');
  if (algorithm !== ALGORITHM) throw invalid(`names algorithm "${algorithm}"`);
  if (!KEY_ID_PATTERN.test(keyId)) throw invalid('has a key id that is not a key id');
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) throw invalid('is not base64url');
  const signature = Buffer.from(encoded, 'base64url');
  if (signature.length !== ED25519_SIGNATURE_BYTES) throw invalid(`has ${signature.length} bytes, not 64`);
  return { keyId, signature };
}
