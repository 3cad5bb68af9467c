import { BatonError } from '@baton/errors';
import { ed25519Verify } from './ed25519.js';
import { SIGNED_SHAPES, type MessageKind } from './signed-message.js';
import { signedBytes } from './message-signer.js';
import { parseSignature } from './signature-value.js';
import type { TrustStore, TrustedKey } from './trust-store.js';

/** The key, and so the sender, a valid signature proves. */
export interface VerifiedSignature {
  keyId: string;
  senderId: string;
}

interface SignatureClaim {
  keyId: string;
  key: TrustedKey;
  bytes: Buffer;
  signature: Buffer;
}

/**
 * Checks a message's signature: present (SIGNATURE_MISSING), well formed and made over these exact
 * contents (SIGNATURE_INVALID), by a key of the trust store (SIGNING_KEY_UNKNOWN) that signs for the
 * sender_id the message claims (SENDER_MISMATCH). Throws the BatonError of the first that fails.
 * `ownKeyId` is the reader's own signing key: what it signed itself it wrote itself, whatever the
 * sender (an agent that took a task over by negotiation writes the task's handoff into its own
 * inbox, after verifying the sender's signed TaskContextTransfer).
 */
export function verifySignature(
  kind: MessageKind,
  message: Record<string, unknown>,
  trustStore: TrustStore,
  ownKeyId?: string,
): VerifiedSignature {
  const claim = signatureClaim(kind, message, trustStore);
  return verified(kind, message, claim, ed25519Verify(claim.key.publicKey, claim.bytes, claim.signature), ownKeyId);
}

/** The signature, its key and the bytes it must cover; the checks before the Ed25519 one. */
function signatureClaim(kind: MessageKind, message: Record<string, unknown>, trustStore: TrustStore): SignatureClaim {
  const shape = SIGNED_SHAPES[kind];
  const text = shape.signatureOf(message);
  if (text === undefined) {
    throw new BatonError('SIGNATURE_MISSING', 'the message is not signed, and this service requires signatures', {
      path: shape.signaturePath,
    });
  }
  if (typeof text !== 'string') {
    throw new BatonError('SIGNATURE_INVALID', 'the signature is not a string', { path: shape.signaturePath });
  }
  const { keyId, signature } = parseSignature(text, shape.signaturePath);
  const key = trustStore.keyFor(keyId);
  if (key === undefined) {
    throw new BatonError('SIGNING_KEY_UNKNOWN', `key id ${keyId} is not in the trust store`, {
      path: shape.signaturePath,
      details: { keyId },
    });
  }
  return { keyId, key, bytes: signedBytes(kind, message), signature };
}

/** The checks after the Ed25519 one: the signature matched, and its key signs for the sender. */
function verified(
  kind: MessageKind,
  message: Record<string, unknown>,
  { keyId, key }: SignatureClaim,
  matches: boolean,
  ownKeyId: string | undefined,
): VerifiedSignature {
  const shape = SIGNED_SHAPES[kind];
  if (!matches) {
    throw new BatonError(
      'SIGNATURE_INVALID',
      `the signature by key ${keyId} does not match the message: it was changed after signing, or signed by another key`,
      { path: shape.signaturePath, details: { keyId } },
    );
  }
  const sender = shape.senderOf(message);
  if (typeof sender !== 'string' || !(key.senders.has('*') || key.senders.has(sender) || keyId === ownKeyId)) {
    throw new BatonError(
      'SENDER_MISMATCH',
      `key ${keyId} signs for ${[...key.senders].join(', ')}, not for sender_id ${String(sender)}`,
      { path: shape.senderPath, details: { keyId } },
    );
  }
  return { keyId, senderId: sender };
}
