import { generateKeyPairSync, sign } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Ed25519PrivateKey, ed25519Verify, rawPublicKey } from './ed25519.js';

describe('Ed25519 through libsodium', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const key = new Ed25519PrivateKey(privateKey);
  const bytes = Buffer.from('{"metadata":{"message_id":"m-1"}}');

  it('makes the signature node:crypto makes, byte for byte, under the same public key', () => {
    expect(key.sign(bytes).equals(sign(null, bytes, privateKey))).toBe(true);
    expect(key.publicKey.equals(rawPublicKey(publicKey))).toBe(true);
  });

  it('verifies a signature of the bytes and refuses one of other bytes or by another key', () => {
    const signature = key.sign(bytes);
    expect(ed25519Verify(rawPublicKey(publicKey), bytes, signature)).toBe(true);
    expect(ed25519Verify(rawPublicKey(publicKey), Buffer.from('{"metadata":{"message_id":"m-2"}}'), signature)).toBe(
      false,
    );
    const other = generateKeyPairSync('ed25519').publicKey;
    expect(ed25519Verify(rawPublicKey(other), bytes, signature)).toBe(false);
  });

  it('shows no key bytes to a log line or util.inspect', () => {
    expect(JSON.stringify({ key })).toBe('{"key":"[Ed25519PrivateKey]"}');
    expect(inspect({ key })).toBe('{ key: [Ed25519PrivateKey] }');
  });
});
