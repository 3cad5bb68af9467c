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
const DIGEST_BYTES = 32;

/**
 * What a seal's MACs are of: the record value's BLAKE2b-256. Worked out once per record, however
 * many readers it is sealed for or checked by: the router checks a sender's seal and vouches for
 * the same bytes, a writer seals each outcome event for two readers.
 */
export function digestOf(value: Buffer): Buffer {
  const digest = Buffer.allocUnsafe(DIGEST_BYTES);
  sodium.crypto_generichash(digest, value);
  return digest;
}
/** Where each MAC is computed before it is written out as text (synchronously, so one is enough). */
const macScratch = Buffer.alloc(MAC_BYTES);

const SEAL_PREFIX = `${SEAL_SCHEME}:`;
const COLON = 0x3a;
const COMMA = 0x2c;

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Base64url character codes by 6-bit value. */
const BASE64URL_CODES = Uint8Array.from(BASE64URL, (char) => char.charCodeAt(0));
/** Characters of a MAC in unpadded base64url. */
const MAC_CHARS = Math.ceil((MAC_BYTES * 8) / 6);

/**
 * Whether `text` from `start` to `end` is `mac` in unpadded base64url, in time that does not depend
 * on where they differ. The MAC is encoded as it is compared: a reader checks one for every record,
 * and a string of it was an allocation of its own.
 */
function isMacText(text: string, start: number, end: number, mac: Buffer): boolean {
  if (end - start !== MAC_CHARS) return false;
  let difference = 0;
  let at = start;
  // Three bytes make four characters; the 16th byte, alone, makes the last two.
  for (let index = 0; index + 3 <= MAC_BYTES; index += 3) {
    const bits = ((mac[index] as number) << 16) | ((mac[index + 1] as number) << 8) | (mac[index + 2] as number);
    difference |= text.charCodeAt(at) ^ (BASE64URL_CODES[bits >>> 18] as number);
    difference |= text.charCodeAt(at + 1) ^ (BASE64URL_CODES[(bits >>> 12) & 63] as number);
    difference |= text.charCodeAt(at + 2) ^ (BASE64URL_CODES[(bits >>> 6) & 63] as number);
    difference |= text.charCodeAt(at + 3) ^ (BASE64URL_CODES[bits & 63] as number);
    at += 4;
  }
  const last = mac[MAC_BYTES - 1] as number;
  difference |= text.charCodeAt(at) ^ (BASE64URL_CODES[last >>> 2] as number);
  difference |= text.charCodeAt(at + 1) ^ (BASE64URL_CODES[(last & 3) << 4] as number);
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
 * one MAC per recipient key (several while a key rotates): the keyed BLAKE2b-128 of the value's
 * digest (digestOf), in base64url. Only the writer and that reader can make a MAC the reader
 * accepts: unlike a signature, a seal proves nothing to a third party.
 */
export class VerificationSeals {
  private readonly pairKeys = new Map<string, PairKey>();

  constructor(
    private readonly ownKey: SigningKey,
    private readonly trustStore: TrustStore,
  ) {}

  /** The seal header's value for `recipient`'s keys, or undefined when the trust store holds none for it. */
  seal(digest: Buffer, recipient: string): string | undefined {
    return this.sealFor(digest, this.trustStore.keysSigningFor(recipient));
  }

  /** The header of seals of the value of `digest` (digestOf) for each of `recipients`; undefined for none. */
  sealFor(digest: Buffer, recipients: readonly TrustedKey[]): string | undefined {
    let macs = '';
    for (const key of recipients) {
      const mac = this.mac(key.keyId, key.publicKey, digest);
      if (mac !== undefined) macs += `${macs === '' ? '' : ','}${key.keyId}=${mac.toString('base64url')}`;
    }
    return macs === '' ? undefined : `${SEAL_SCHEME}:${this.ownKey.keyId}:${macs}`;
  }

  /**
   * The trusted key that sealed the value of `digest`, when `seals` holds a matching seal by it for this
   * service's key, or one this service made itself for another reader (what a service wrote it
   * wrote itself, as with its own signature); undefined otherwise. What the sealer may vouch for is
   * the caller's to judge.
   */
  sealerOf(digest: Buffer, seals: string | undefined): TrustedKey | undefined {
    // Read with indexOf rather than split: every record a reader takes goes through here.
    if (seals === undefined || !seals.startsWith(SEAL_PREFIX)) return undefined;
    const sealerEnd = seals.indexOf(':', SEAL_PREFIX.length);
    if (sealerEnd < 0) return undefined;
    const sealerKeyId = seals.slice(SEAL_PREFIX.length, sealerEnd);
    const ownKeyId = this.ownKey.keyId;
    if (sealerKeyId !== ownKeyId) {
      // Another writer's seals: only the MAC for this service's key matters.
      const sealer = this.trustStore.keyFor(sealerKeyId);
      const at = this.macFor(seals, sealerEnd, ownKeyId);
      if (sealer === undefined || at === undefined) return undefined;
      return this.matches(seals, at, sealerKeyId, sealer, digest) ? sealer : undefined;
    }
    // Its own seals, read back: each was made for another reader, whose MAC key it shares.
    const own = this.trustStore.keyFor(ownKeyId);
    if (own === undefined) return undefined;
    for (let at = sealerEnd + 1; at < seals.length;) {
      const equals = seals.indexOf('=', at);
      if (equals < 0) return undefined;
      const recipientKeyId = seals.slice(at, equals);
      const recipient = KEY_ID_PATTERN.test(recipientKeyId) ? this.trustStore.keyFor(recipientKeyId) : undefined;
      // The recipient of an own seal knows its MAC key too: only one that could vouch for any
      // handoff to this service anyway (the router's, the gateway's) is not given a power it lacked.
      if (
        recipient !== undefined &&
        vouches(recipient) &&
        this.matches(seals, equals + 1, recipientKeyId, recipient, digest)
      )
        return own;
      const next = seals.indexOf(',', equals);
      if (next < 0) return undefined;
      at = next + 1;
    }
    return undefined;
  }

  /** Where the MAC for `recipientKeyId` starts in `seals` (after its `<key id>=`), or undefined when it has none. */
  private macFor(seals: string, from: number, recipientKeyId: string): number | undefined {
    const marker = `${recipientKeyId}=`;
    for (let at = seals.indexOf(marker, from); at >= 0; at = seals.indexOf(marker, at + 1)) {
      // A whole key id: preceded by the sealer's `:` or the previous MAC's `,`.
      const before = seals.charCodeAt(at - 1);
      if (before === COLON || before === COMMA) return at + marker.length;
    }
    return undefined;
  }

  /** Whether the MAC at `at` in `seals` (up to the next `,`) is that of `digest` for `peer`. */
  private matches(seals: string, at: number, peerKeyId: string, peer: TrustedKey, digest: Buffer): boolean {
    const end = seals.indexOf(',', at);
    const expected = this.mac(peerKeyId, peer.publicKey, digest);
    return expected !== undefined && isMacText(seals, at, end < 0 ? seals.length : end, expected);
  }

  /**
   * The MAC of `digest` for the peer, in a buffer the next MAC overwrites; undefined for a peer key
   * that agrees on no secret (not a valid point).
   */
  private mac(peerKeyId: string, peerPublicKey: Buffer, digest: Buffer): Buffer | undefined {
    const key = this.pairKey(peerKeyId, peerPublicKey);
    if (key === undefined) return undefined;
    // One libsodium call into a buffer used again: HMAC-SHA256 of the whole value through
    // node:crypto was two hashes, each an OpenSSL lookup and a new Buffer, and the seven of a
    // handoff took the signed path from 0.88x of unsigned (no MAC computed at all) to 0.66x.
    sodium.crypto_generichash(macScratch, digest, key);
    return macScratch;
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
