import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SigningKey } from './message-signer.js';
import { KEY_ID_PATTERN } from './signature-value.js';
import type { TrustStore, TrustedKey } from './trust-store.js';

/**
 * The record header of a verification seal: the router's word to one agent that it verified the
 * record's signature, which the agent checks for a few microseconds instead of verifying the
 * signature again (an Ed25519 verification, the one large cost of a signed handoff).
 */
export const SEAL_HEADER = 'baton.seal';

/** The sender a key must sign for to seal a handoff for an agent: the router vouches for what it forwards. */
export const SEALING_SENDER = 'router';

/** How a seal starts: a signature field or seal header holding this is a list of seals, not a signature. */
export const SEAL_SCHEME = 'x25519-hmac-sha256';
const SCHEME = SEAL_SCHEME;
const CONTEXT = Buffer.from('baton verification seal v1');

interface PairKey {
  peerPublicKey: Buffer;
  macKey: Buffer;
}

/**
 * Verification seals between the router and each agent, from the Ed25519 keys they already have:
 * the router's private key and an agent's public key from the trust store (or the agent's private
 * key and the router's public key) give one X25519 secret, from which each derives the same MAC key.
 * A seal is `x25519-hmac-sha256:<sealer key id>:<recipient key id>:<HMAC-SHA256 of the record value>`,
 * one per key the trust store holds for the recipient (several while its key rotates), comma-separated.
 * Only the router and that agent can make a seal the agent accepts; a seal that is missing, made
 * for another key or does not match leaves the agent to verify the signature itself, so a seal can
 * save work but never admit a message.
 */
export class VerificationSeals {
  private readonly pairKeys = new Map<string, PairKey>();

  constructor(
    private readonly ownKey: SigningKey,
    private readonly trustStore: TrustStore,
  ) {}

  /** The seal header's value for `recipient`'s keys, or undefined when the trust store holds none for it. */
  seal(value: Buffer, recipient: string): string | undefined {
    return this.sealFor(value, this.trustStore.keysSigningFor(recipient));
  }

  /** Seals of `value` for each of `recipients`, comma-separated; undefined for none. */
  sealFor(value: Buffer, recipients: readonly TrustedKey[]): string | undefined {
    const seals: string[] = [];
    for (const key of recipients) {
      const mac = this.mac(key.keyId, key.publicKey, value);
      if (mac !== undefined) seals.push(`${SCHEME}:${this.ownKey.keyId}:${key.keyId}:${mac.toString('base64url')}`);
    }
    return seals.length === 0 ? undefined : seals.join(',');
  }

  /**
   * The sealer's key id when `header` holds a seal of `value` for this service's key by a key that
   * signs for the router; undefined otherwise, whatever the reason (the caller then verifies).
   */
  check(value: Buffer, header: string | undefined): string | undefined {
    const sealer = this.sealerOf(value, header);
    return sealer !== undefined && (sealer.senders.has(SEALING_SENDER) || sealer.senders.has('*'))
      ? sealer.keyId
      : undefined;
  }

  /**
   * The trusted key that sealed `value` for this service's key, when `seals` holds such a seal and
   * it matches; undefined otherwise. What the sealer may vouch for is the caller's to judge.
   */
  sealerOf(value: Buffer, seals: string | undefined): TrustedKey | undefined {
    if (seals === undefined) return undefined;
    for (const seal of seals.split(',')) {
      const [scheme, sealerKeyId, recipientKeyId, encoded, ...rest] = seal.split(':');
      if (scheme !== SCHEME || rest.length > 0 || recipientKeyId !== this.ownKey.keyId) continue;
      if (sealerKeyId === undefined || encoded === undefined || !KEY_ID_PATTERN.test(sealerKeyId)) continue;
      const sealer = this.trustStore.keyFor(sealerKeyId);
      if (sealer === undefined) continue;
      const given = Buffer.from(encoded, 'base64url');
      const expected = this.mac(sealerKeyId, sealer.publicKey, value);
      if (expected !== undefined && given.length === expected.length && timingSafeEqual(given, expected)) return sealer;
    }
    return undefined;
  }

  /** Undefined for a peer key that agrees on no secret (not a valid point): no seal with it. */
  private mac(peerKeyId: string, peerPublicKey: Buffer, value: Buffer): Buffer | undefined {
    const key = this.pairKey(peerKeyId, peerPublicKey);
    return key === undefined ? undefined : createHmac('sha256', key).update(value).digest();
  }

  /** Derived once per peer key; a key id whose public key changed in the trust store is derived anew. */
  private pairKey(peerKeyId: string, peerPublicKey: Buffer): Buffer | undefined {
    const known = this.pairKeys.get(peerKeyId);
    if (known !== undefined && known.peerPublicKey.equals(peerPublicKey)) return known.macKey;
    let shared: Buffer;
    try {
      shared = this.ownKey.privateKey.agree(peerPublicKey);
    } catch {
      return undefined;
    }
    // Both sides order the two public keys the same way, so they derive the same key.
    const [first, second] = [this.ownKey.privateKey.publicKey, peerPublicKey].sort(Buffer.compare) as [Buffer, Buffer];
    const macKey = createHmac('sha256', shared).update(CONTEXT).update(first).update(second).digest();
    shared.fill(0);
    this.pairKeys.set(peerKeyId, { peerPublicKey, macKey });
    return macKey;
  }
}
