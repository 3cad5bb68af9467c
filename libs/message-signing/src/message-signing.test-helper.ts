import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readSigningKey, type SigningKey } from './message-signer.js';

/** A fresh Ed25519 key pair: the signing key under `keyId`, its private key, and the trust store entry of its public half. */
export function newKeyPair(
  keyId: string,
  senders: string[],
): { signingKey: SigningKey; privateKey: KeyObject; entry: Record<string, unknown> } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey,
    signingKey: readSigningKey(keyId, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
    entry: { key_id: keyId, senders, public_key: publicKey.export({ type: 'spki', format: 'pem' }).toString() },
  };
}

export function trustStoreText(entries: Record<string, unknown>[]): string {
  return JSON.stringify({ keys: entries });
}
