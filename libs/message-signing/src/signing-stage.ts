import type { BatonError } from '@baton/errors';
import type { WireStage } from '@baton/wire';
import { signMessage, type SigningKey } from './message-signer.js';
import { verifySignature } from './signature-verifier.js';
import { SIGNED_SHAPES, type MessageKind } from './signed-message.js';
import type { TrustStore } from './trust-store.js';

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
  /** Every verification's outcome: `valid` or the failure's code (counted by the service). */
  onVerified?(outcome: string, kind: MessageKind): void;
}

/**
 * The codec stage of signatures: `seal` signs what the service writes; `open` verifies what it
 * reads, before decryption, so it checks the bytes as they were sent. A message that already
 * carries a signature is written as it is: it was signed by its sender (a record forwarded or
 * replayed keeps its bytes; a client may publish a message it signed itself).
 */
export function signingStage(options: SigningStageOptions): WireStage {
  const { kind, mode, signingKey, trustStore } = options;
  const shape = SIGNED_SHAPES[kind];
  if (mode !== 'off' && trustStore === undefined) throw new Error(`signature mode ${mode} needs a trust store`);
  return {
    seal(message) {
      if (signingKey === undefined || shape.signatureOf(message as Record<string, unknown>) !== undefined)
        return message;
      return signMessage(kind, message, signingKey);
    },
    open(message) {
      if (mode === 'off') return message;
      try {
        verifySignature(kind, message as Record<string, unknown>, trustStore as TrustStore, signingKey?.keyId);
        options.onVerified?.('valid', kind);
      } catch (error) {
        const failure = error as BatonError;
        options.onVerified?.(failure.code, kind);
        if (mode === 'required') throw failure;
        options.onUnverified?.(failure, kind);
      }
      return message;
    },
  };
}
