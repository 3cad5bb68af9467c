import sodium from 'sodium-native';
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

/** How a seal header starts: the scheme, then the sealer's key id, then each recipient's MAC. */
export const SEAL_SCHEME = 'x25519-blake2b-128';
const CONTEXT = Buffer.from('baton verification seal v1');
/** A MAC's bytes: keyed BLAKE2b (RFC 7693) of 128 bits, 22 characters in base64url. */
const MAC_BYTES = 16;
const PAIR_KEY_BYTES = 32;
/** Where each MAC is computed before it is written out as text (synchronously, so one is enough). */
const macScratch = Buffer.alloc(MAC_BYTES);

/** Whether two MACs in base64url are the same, in time that does not depend on where they differ. */
function sameText(given: string, expected: string): boolean {
  if (given.length !== expected.length) return false;
  let difference = 0;
  for (let index = 0; index < given.length; index += 1)
    difference |= given.charCodeAt(index) ^ expected.charCodeAt(index);
  return difference === 0;
}

interface PairKey {
  peerPublicKey: Buffer;
  macKey: Buffer;
}

/**
 * Seals between two holders of trust-store keys, from the Ed25519 keys they already have: the
 * writer's private key and a reader's public key (or the reader's private key and the writer's
 * public key) give one X25519 secret, from which each derives the same MAC key. A header of seals
 * is `x25519-blake2b-128:<sealer key id>:<recipient key id>=<MAC>,<recipient key id>=<MAC>…`,
 * one MAC of the record value per recipient key (several while a key rotates), each the first 16
 * bytes of its HMAC-SHA256 in base64url. Only the writer and that reader can make a MAC the reader
 * accepts: unlike a signature, a seal proves nothing to a third party.
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

  /** The header of seals of `value` for each of `recipients`; undefined for none. */
  sealFor(value: Buffer, recipients: readonly TrustedKey[]): string | undefined {
    let macs = '';
    for (const key of recipients) {
      const mac = this.mac(key.keyId, key.publicKey, value);
      if (mac !== undefined) macs += `${macs === '' ? '' : ','}${key.keyId}=${mac}`;
    }
    return macs === '' ? undefined : `${SEAL_SCHEME}:${this.ownKey.keyId}:${macs}`;
  }

  /**
   * The trusted key that sealed `value`, when `seals` holds a matching seal by it for this
   * service's key, or one this service made itself for another reader (what a service wrote it
   * wrote itself, as with its own signature); undefined otherwise. What the sealer may vouch for is
   * the caller's to judge.
   */
  sealerOf(value: Buffer, seals: string | undefined): TrustedKey | undefined {
    if (seals === undefined) return undefined;
    const [scheme, sealerKeyId, macs, ...rest] = seals.split(':');
    if (scheme !== SEAL_SCHEME || rest.length > 0 || sealerKeyId === undefined || macs === undefined) return undefined;
    const ownKeyId = this.ownKey.keyId;
    const own = sealerKeyId === ownKeyId;
    // Most headers an agent reads are a sender's seals for the router and the gateway: none is for it.
    if (!own && !macs.includes(`${ownKeyId}=`)) return undefined;
    for (const entry of macs.split(',')) {
      const [recipientKeyId, encoded, ...extra] = entry.split('=');
      if (recipientKeyId === undefined || encoded === undefined || extra.length > 0) continue;
      if (!own && recipientKeyId !== ownKeyId) continue;
      const peerKeyId = own ? recipientKeyId : sealerKeyId;
      if (!KEY_ID_PATTERN.test(peerKeyId)) continue;
      const peer = this.trustStore.keyFor(peerKeyId);
      const sealer = own ? this.trustStore.keyFor(ownKeyId) : peer;
      if (peer === undefined || sealer === undefined) continue;
      // The recipient of an own seal knows its MAC key too: only one that could vouch for any
      // handoff to this service anyway (the router's, the gateway's) is not given a power it lacked.
      if (own && !vouches(peer)) continue;
      const expected = this.mac(peerKeyId, peer.publicKey, value);
      if (expected !== undefined && sameText(encoded, expected)) return sealer;
    }
    return undefined;
  }

  /** The MAC of `value` for the peer, in base64url; undefined for a peer key that agrees on no secret (not a valid point). */
  private mac(peerKeyId: string, peerPublicKey: Buffer, value: Buffer): string | undefined {
    const key = this.pairKey(peerKeyId, peerPublicKey);
    if (key === undefined) return undefined;
    // One libsodium call into a buffer used again: HMAC-SHA256 through node:crypto was two hashes,
    // each an OpenSSL lookup and a new Buffer, and the seven of a handoff took the signed path from
    // 0.89x of unsigned (no MAC computed at all) to 0.66x; with this, 0.77x.
    sodium.crypto_generichash(macScratch, value, key);
    return macScratch.toString('base64url');
  }

  /** Derived once per peer key; a key id whose public key changed in the trust store is derived anew. */
  private pairKey(peerKeyId: string, peerPublicKey: Buffer): Buffer | undefined {
    const known = this.pairKeys.get(peerKeyId);
    if (known !== undefined && (known.peerPublicKey === peerPublicKey || known.peerPublicKey.equals(peerPublicKey)))
      return known.macKey;
    let shared: Buffer;
    try {
      shared = this.ownKey.privateKey.agree(peerPublicKey);
    } catch {
      return undefined;
    }
    // Both sides order the two public keys the same way, so they derive the same key.
    const [first, second] = [this.ownKey.privateKey.publicKey, peerPublicKey].sort(Buffer.compare) as [Buffer, Buffer];
    const macKey = Buffer.alloc(PAIR_KEY_BYTES);
    sodium.crypto_generichash(macKey, Buffer.concat([CONTEXT, first, second]), shared);
    shared.fill(0);
    this.pairKeys.set(peerKeyId, { peerPublicKey, macKey });
    return macKey;
  }
}
