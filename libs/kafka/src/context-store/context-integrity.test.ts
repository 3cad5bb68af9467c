import { describe, expect, it } from 'vitest';
import { sha256Hex, verifyContext } from './context-integrity.js';

const BYTES = Buffer.from('{"conversation":[]}');
const REF = {
  uri: 'kafka://baton.contexts/0/0',
  sha256: sha256Hex(BYTES),
  size_bytes: BYTES.length,
  content_type: 'application/json',
};

describe('checking fetched bytes against their reference', () => {
  it('computes lowercase hex sha256', () => {
    expect(sha256Hex(Buffer.from('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('accepts the bytes the reference describes', () => {
    expect(() => verifyContext(BYTES, REF)).not.toThrow();
  });

  it('refuses another size at size_bytes', () => {
    expect(() => verifyContext(BYTES, { ...REF, size_bytes: BYTES.length + 1 })).toThrow(
      expect.objectContaining({
        code: 'CONTEXT_INTEGRITY_FAILED',
        retriable: false,
        path: '/payload/context_ref/size_bytes',
        details: { uri: REF.uri, expected: BYTES.length + 1, actual: BYTES.length },
      }),
    );
  });

  it('refuses another digest at sha256', () => {
    const tampered = Buffer.from(BYTES);
    tampered[0] = 0x5b;
    expect(() => verifyContext(tampered, REF)).toThrow(
      expect.objectContaining({ code: 'CONTEXT_INTEGRITY_FAILED', path: '/payload/context_ref/sha256' }),
    );
  });
});
