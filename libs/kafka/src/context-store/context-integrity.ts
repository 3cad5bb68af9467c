import { createHash } from 'node:crypto';
import { BatonError } from '@baton/errors';
import { CONTEXT_REF_PATHS, type StoredContextRef } from './stored-context-ref.js';

/** SHA-256 of `bytes`, lowercase hex, as a context_ref carries it. */
export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Refuses (CONTEXT_INTEGRITY_FAILED) fetched bytes that are not the ones the reference describes:
 * the size is checked first, as the cheaper and more telling of the two.
 */
export function verifyContext(bytes: Buffer, ref: StoredContextRef): void {
  if (bytes.length !== ref.size_bytes) {
    throw new BatonError(
      'CONTEXT_INTEGRITY_FAILED',
      `context ${ref.uri} has ${bytes.length} bytes, its reference says ${ref.size_bytes}`,
      { path: CONTEXT_REF_PATHS.sizeBytes, details: { uri: ref.uri, expected: ref.size_bytes, actual: bytes.length } },
    );
  }
  const sha256 = sha256Hex(bytes);
  if (sha256 !== ref.sha256) {
    throw new BatonError(
      'CONTEXT_INTEGRITY_FAILED',
      `context ${ref.uri} has sha256 ${sha256}, its reference says ${ref.sha256}`,
      {
        path: CONTEXT_REF_PATHS.sha256,
        details: { uri: ref.uri, expected: ref.sha256, actual: sha256 },
      },
    );
  }
}
