import { BatonError } from '@baton/errors';
import type { ReadFacts, WireStage } from '@baton/wire';
import { signMessage, type SigningKey } from './message-signer.js';
import { verifySignature, type VerifiedSignature } from './signature-verifier.js';
import { SIGNED_SHAPES, type MessageKind } from './signed-message.js';
import type { SealedKind, TrustStore, TrustedKey } from './trust-store.js';
import { SEAL_HEADER, VOUCH_HEADER, VerificationSeals, digestOf, vouches } from './verification-seal.js';

/**
 * What a service does with signatures on what it reads: `off` does not look, `warn` verifies and
 * reports a failure but processes the message (the step before requiring, while senders get their
 * keys), `required` dead-letters a message that fails with the failure's code.
 */
export type SignatureMode = 'off' | 'warn' | 'required';
export const SIGNATURE_MODES: readonly SignatureMode[] = ['off', 'warn', 'required'];

export interface SigningStageOptions {
  kind: MessageKind;
  mode: SignatureMode;
  /** Signs (or seals) every message written without a signature; without it messages go unsigned. */
  signingKey?: SigningKey;
  /** A key seals for it are also checked with (see READER_KEY_VARIABLES); it signs nothing. */
  readerKey?: SigningKey;
  /** Required unless mode is off. */
  trustStore?: TrustStore;
  /** A verification failure in `warn` mode. */
  onUnverified?(error: BatonError, kind: MessageKind): void;
  /**
   * Every verification's outcome: `valid` (a signature or its sender's seal), `sealed` (a handoff
   * the router's seal vouched for) or the failure's code (counted by the service).
   */
  onVerified?(outcome: string, kind: MessageKind): void;
}

const SEALED_KINDS: ReadonlySet<MessageKind> = new Set<SealedKind>(['handoff', 'outcome']);

/**
 * The codec stage of signatures: `seal` signs what the service writes, `headers` seals it instead,
 * and `open` verifies what it reads, before decryption, so it checks the bytes as they were sent.
 *
 * A handoff or an outcome event is sealed for the services that read that kind from its writers
 * (the trust store's `handoff_reader` and `outcome_reader` keys) when the trust store names any:
 * the seals go in the record's `baton.seal` header, over its value's exact bytes, and each reader
 * checks an HMAC for a few microseconds where an Ed25519 signature cost the writer 25 and each
 * reader 52 (and both the message's canonical JSON). Otherwise, and for the other kinds, the
 * message is signed. A message that already carries a signature is written as it is: it was
 * signed by its sender (a record forwarded or replayed keeps its bytes; a client may publish a
 * message it signed itself).
 *
 * A reader takes a record sealed for its key by a key that signs for the record's sender, or for
 * itself; a handoff the router vouched for (its seal in `baton.vouch`: it verified the handoff)
 * without verifying it again; and verifies a signature otherwise.
 */
export function signingStage(options: SigningStageOptions): WireStage {
  const { kind, mode, signingKey, trustStore } = options;
  const shape = SIGNED_SHAPES[kind];
  if (mode !== 'off' && trustStore === undefined) throw new Error(`signature mode ${mode} needs a trust store`);
  const seals =
    signingKey !== undefined && trustStore !== undefined ? new VerificationSeals(signingKey, trustStore) : undefined;
  const readerSeals =
    options.readerKey !== undefined && trustStore !== undefined
      ? new VerificationSeals(options.readerKey, trustStore)
      : undefined;
  /** The key that sealed the value of `digest`, by `header`'s seals for this service's key or its reader key. */
  const sealerOf = (digest: Buffer, header: string | undefined) =>
    seals?.sealerOf(digest, header) ?? readerSeals?.sealerOf(digest, header);
  /** The keys this service seals what it writes for; undefined when it signs instead. */
  const sealedFor = (): readonly TrustedKey[] | undefined => {
    if (seals === undefined || !SEALED_KINDS.has(kind)) return undefined;
    const readers = (trustStore as TrustStore).readersOf(kind as SealedKind);
    return readers.length > 0 ? readers : undefined;
  };
  const verifiedAs = (outcome: string, senderId: string, facts?: { verified?: { senderId: string } }) => {
    if (facts !== undefined) facts.verified = { senderId };
    options.onVerified?.(outcome, kind);
  };
  return {
    // A seal is in the record's header, over its value: reading one needs the record's facts.
    readsFacts: mode !== 'off',
    seal(message) {
      if (signingKey === undefined || shape.signatureOf(message as Record<string, unknown>) !== undefined)
        return message;
      return sealedFor() !== undefined ? message : signMessage(kind, message, signingKey);
    },
    headers(sealed, value) {
      const readers = sealedFor();
      if (readers === undefined || shape.signatureOf(sealed as Record<string, unknown>) !== undefined) return undefined;
      const header = (seals as VerificationSeals).sealFor(digestOf(value), readers);
      if (header === undefined) throw new Error(`no ${kind} reader's key in the trust store agrees on a secret`);
      return { [SEAL_HEADER]: header };
    },
    open(message, facts) {
      if (mode === 'off') return message;
      const record = message as Record<string, unknown>;
      try {
        const canCheck = (seals !== undefined || readerSeals !== undefined) && facts !== undefined;
        // Worked out once, for whichever seal is checked, and kept for a service that seals the value again.
        const digest = () => ((facts as ReadFacts).digest ??= digestOf((facts as ReadFacts).value));
        // A vouch first: an agent's handoffs carry one, and their sender's seals are not for it.
        const vouched = kind === 'handoff' ? facts?.header(VOUCH_HEADER) : undefined;
        const voucher = canCheck && vouched !== undefined ? sealerOf(digest(), vouched) : undefined;
        if (voucher !== undefined && vouches(voucher)) {
          verifiedAs('sealed', String(shape.senderOf(record)), facts);
          return message;
        }
        const sealed = facts?.header(SEAL_HEADER);
        const sealer = canCheck && sealed !== undefined ? sealerOf(digest(), sealed) : undefined;
        if (sealer !== undefined) {
          const sender = shape.senderOf(record);
          if (typeof sender !== 'string' || !signsFor(sealer, sender, signingKey)) {
            throw new BatonError(
              'SENDER_MISMATCH',
              `key ${sealer.keyId} signs for ${[...sealer.senders].join(', ')}, not for ${String(sender)}`,
              { path: shape.senderPath, details: { keyId: sealer.keyId } },
            );
          }
          verifiedAs('valid', sender, facts);
          return message;
        }
        if ((sealed !== undefined || vouched !== undefined) && shape.signatureOf(record) === undefined) {
          throw new BatonError(
            'SIGNATURE_INVALID',
            "no seal of the record is for this service's key, or none matches its value: it was changed after sealing, or sealed for other readers",
            { path: shape.signaturePath },
          );
        }
        const verified: VerifiedSignature = verifySignature(kind, record, trustStore as TrustStore, signingKey?.keyId);
        verifiedAs('valid', verified.senderId, facts);
        return message;
      } catch (error) {
        const failure = error as BatonError;
        options.onVerified?.(failure.code, kind);
        if (mode === 'required') throw failure;
        options.onUnverified?.(failure, kind);
        return message;
      }
    },
  };
}

/** Whether `key` speaks for `sender`: it signs for it (or anyone), or it is this service's own. */
function signsFor(key: TrustedKey, sender: string, own: SigningKey | undefined): boolean {
  return key.senders.has('*') || key.senders.has(sender) || key.keyId === own?.keyId;
}
