import type { BatonError } from '@baton/errors';
import type { WireStage } from '@baton/wire';
import { sealMessage, signMessage, type SigningKey } from './message-signer.js';
import { isSealed, verifySeals, verifySignature, type VerifiedSignature } from './signature-verifier.js';
import { SIGNED_SHAPES, type MessageKind } from './signed-message.js';
import type { TrustStore } from './trust-store.js';
import { SEAL_HEADER, VerificationSeals } from './verification-seal.js';

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
  /** Signs every message written without a signature; without it messages go unsigned. */
  signingKey?: SigningKey;
  /** Required unless mode is off. */
  trustStore?: TrustStore;
  /** A verification failure in `warn` mode. */
  onUnverified?(error: BatonError, kind: MessageKind): void;
  /**
   * Every verification's outcome: `valid`, `sealed` (a handoff the router's seal vouched for, see
   * VerificationSeals) or the failure's code (counted by the service).
   */
  onVerified?(outcome: string, kind: MessageKind): void;
}

/**
 * The codec stage of signatures: `seal` signs what the service writes; `open` verifies what it
 * reads, before decryption, so it checks the bytes as they were sent. A message that already
 * carries a signature is written as it is: it was signed by its sender (a record forwarded or
 * replayed keeps its bytes; a client may publish a message it signed itself). A handoff whose
 * record carries the router's verification seal for this service's key is not verified again. An
 * outcome event is sealed for the services that read outcome events (the trust store's
 * `outcome_reader` keys) rather than signed, when the trust store names any: each reader checks
 * an HMAC for a few microseconds where an Ed25519 signature cost the writer 25 and each reader 52.
 */
export function signingStage(options: SigningStageOptions): WireStage {
  const { kind, mode, signingKey, trustStore } = options;
  const shape = SIGNED_SHAPES[kind];
  if (mode !== 'off' && trustStore === undefined) throw new Error(`signature mode ${mode} needs a trust store`);
  const seals =
    signingKey !== undefined && trustStore !== undefined ? new VerificationSeals(signingKey, trustStore) : undefined;
  return {
    // The seal of a handoff is in its record's header; verifying tells the reader what it proved.
    readsFacts: mode !== 'off',
    seal(message) {
      if (signingKey === undefined || shape.signatureOf(message as Record<string, unknown>) !== undefined)
        return message;
      const readers = kind === 'outcome' ? trustStore?.outcomeReaders() : undefined;
      if (seals !== undefined && readers !== undefined && readers.length > 0) {
        return sealMessage(kind, message, seals, readers) ?? signMessage(kind, message, signingKey);
      }
      return signMessage(kind, message, signingKey);
    },
    open(message, facts) {
      if (mode === 'off') return message;
      if (
        kind === 'handoff' &&
        seals !== undefined &&
        facts !== undefined &&
        seals.check(facts.value, facts.header(SEAL_HEADER)) !== undefined
      ) {
        facts.verified = { senderId: String(shape.senderOf(message as Record<string, unknown>)), sealed: true };
        options.onVerified?.('sealed', kind);
        return message;
      }
      const passed = ({ senderId }: VerifiedSignature) => {
        if (facts !== undefined) facts.verified = { senderId, sealed: false };
        options.onVerified?.('valid', kind);
        return message;
      };
      const failed = (error: unknown) => {
        const failure = error as BatonError;
        options.onVerified?.(failure.code, kind);
        if (mode === 'required') throw failure;
        options.onUnverified?.(failure, kind);
        return message;
      };
      const record = message as Record<string, unknown>;
      const store = trustStore as TrustStore;
      try {
        if (isSealed(shape.signatureOf(record))) {
          const verified = verifySeals(kind, record, seals);
          options.onVerified?.('sealed', kind);
          if (facts !== undefined) facts.verified = { senderId: verified.senderId, sealed: true };
          return message;
        }
        return passed(verifySignature(kind, record, store, signingKey?.keyId));
      } catch (error) {
        return failed(error);
      }
    },
  };
}
