import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SigningKey } from './message-signer.js';
import { KEY_ID_PATTERN } from './signature-value.js';
import type { TrustStore, TrustedKey } from './trust-store.js';

/**
 * The record header of a writer's seals: its word to each reader it names that it wrote the
 * record's value, exactly these bytes, which the reader checks with an HMAC for a few microseconds
 * instead of an Ed25519 verification (52 µs, the one large cost of a signed record). A sender seals
 * a handoff for the router and the gateway, a service its outcome events for the tracker and the
 * gateway.
 */
export const SEAL_HEADER = 'baton.seal';

/**
 * The record header of the router's seal for the agent it forwards a handoff to: its word that it
 * verified the handoff, so the agent does not verify it again. Apart from the sender's seals, which
 * travel on with the record's other headers as they were fetched.
 */
export const VOUCH_HEADER = 'baton.vouch';

/** The sender a key must sign for to vouch, with its seal, for a handoff another sender wrote. */
export const SEALING_SENDER = 'router';

/** Whether `key` may vouch for a handoff another sender wrote: it signs for the router, or for anyone. */
export function vouches(key: TrustedKey): boolean {
  return key.senders.has(SEALING_SENDER) || key.senders.has('*');
}

/** How each seal of the header starts. */
export const SEAL_SCHEME = 'x25519-hmac-sha256';
const SCHEME = SEAL_SCHEME;
const CONTEXT = Buffer.from('baton verification seal v1');

interface PairKey {
  peerPublicKey: Buffer;
  macKey: Buffer;
}

/**
 * Seals between two holders of trust-store keys, from the Ed25519 keys they already have: the
 * writer's private key and a reader's public key (or the reader's private key and the writer's
 * public key) give one X25519 secret, from which each derives the same MAC key. A seal is
 * `x25519-hmac-sha256:<sealer key id>:<recipient key id>:<HMAC-SHA256 of the record value>`, one per
 * recipient key (several while a key rotates), comma-separated. Only the writer and that reader
 * can make a seal the reader accepts: unlike a signature, a seal proves nothing to a third party.
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
   * The trusted key that sealed `value`, when `seals` holds a matching seal by it for this
   * service's key, or one this service made itself for another reader (what a service wrote it
   * wrote itself, as with its own signature); undefined otherwise. What the sealer may vouch for is
   * the caller's to judge.
   */
  sealerOf(value: Buffer, seals: string | undefined): TrustedKey | undefined {
    if (seals === undefined) return undefined;
    const ownKeyId = this.ownKey.keyId;
    for (const seal of seals.split(',')) {
      const [scheme, sealerKeyId, recipientKeyId, encoded, ...rest] = seal.split(':');
      if (scheme !== SCHEME || rest.length > 0 || encoded === undefined) continue;
      if (sealerKeyId === undefined || recipientKeyId === undefined) continue;
      const own = sealerKeyId === ownKeyId;
      if (!own && recipientKeyId !== ownKeyId) continue;
      const peerKeyId = own ? recipientKeyId : sealerKeyId;
      if (!KEY_ID_PATTERN.test(peerKeyId)) continue;
      const peer = this.trustStore.keyFor(peerKeyId);
      const sealer = own ? this.trustStore.keyFor(ownKeyId) : peer;
      if (peer === undefined || sealer === undefined) continue;
      // The recipient of an own seal knows its MAC key too: only one that could vouch for any
      // handoff to this service anyway (the router's, the gateway's) is not given a power it lacked.
      if (own && !vouches(peer)) continue;
      const given = Buffer.from(encoded, 'base64url');
      const expected = this.mac(peerKeyId, peer.publicKey, value);
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
