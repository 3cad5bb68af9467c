import { KeyRingFile, personalDataStages, storedContextStage } from '@baton/field-encryption';
import { signingStage, type MessageKind } from '@baton/message-signing';
import type { WireStage, WireStages } from '@baton/wire';
import type { Registry } from 'prom-client';
import { HotCounter } from './hot-counter.js';
import type { Logger } from './logger.js';
import { METRIC_NAMES } from './metrics.js';
import type { ServiceConfig } from './service-config.js';

/**
 * The key ring the configuration names, read now: a file that cannot be read stops the start with
 * CONFIG_INVALID. A later change that cannot be read is logged (never the file's content) and the
 * ring read before stays in use.
 */
export function personalDataKeyRing(
  config: Readonly<Pick<ServiceConfig, 'personalDataKeyRingFile'>>,
  logger: Logger,
): KeyRingFile | undefined {
  if (config.personalDataKeyRingFile === undefined) return undefined;
  return new KeyRingFile(config.personalDataKeyRingFile, {
    onReloadFailed: (error) =>
      logger.warn(
        { event: 'keyring.reload_failed', code: error.code, path: error.path, err: error.message },
        'the changed key ring cannot be read; the previous one stays in use',
      ),
  });
}

/**
 * What a negotiated handoff's context stored by reference goes through (@baton/negotiation's
 * contextStage): with the key ring, its personal fields encrypted as the codecs encrypt them in a
 * message, so the contexts topic holds ciphertext too; without, nothing, and a context read stays
 * as it was stored.
 */
export function personalDataContextStage(keyRing: KeyRingFile | undefined): WireStage | undefined {
  return keyRing === undefined ? undefined : storedContextStage(keyRing);
}

/** Every kind of message a service signs. */
const SIGNED_KINDS: readonly MessageKind[] = ['handoff', 'lifecycle', 'outcome'];

/**
 * The codec stages of what a service writes and reads. With a key ring, personal fields are
 * encrypted first (@baton/field-encryption); then handoffs, lifecycle messages and outcome events
 * are signed with the service's key, so the signature covers the ciphertext and a service without
 * the key ring can verify it; reading runs the other way. Each verification is counted by kind and
 * outcome (`valid` or the failure's code); in `warn` mode a failure is also logged, never with the
 * message's body.
 */
export function messageStages(
  config: Readonly<Pick<ServiceConfig, 'signing' | 'personalDataKeyRingFile'>>,
  logger: Logger,
  /** Where verifications are counted; a tool that verifies nothing passes none. */
  metrics: Registry | undefined,
  keyRing: KeyRingFile | undefined = personalDataKeyRing(config, logger),
  options: {
    /**
     * The kinds whose reads are verified per the configured mode; the others are only signed. The
     * gateway processes no handoff it reads, but folds outcome events into the task views it shows.
     */
    verified?: readonly MessageKind[];
  } = {},
): Required<WireStages> {
  const { signing } = config;
  // Nearly every message read is counted: a HotCounter, as prom-client's Counter hashes the labels of each inc.
  const verifications =
    metrics &&
    new HotCounter({
      name: METRIC_NAMES.signatureVerifications,
      help: 'Signatures verified on messages read, by kind (handoff, lifecycle, outcome) and outcome (valid, sealed or the failure code)',
      labelNames: ['kind', 'outcome'],
      registers: [metrics],
    });
  signing.trustStore?.onReloadFailed((error) =>
    logger.error(
      { event: 'trust-store.reload-failed', code: 'CONFIG_INVALID', reason: error.message },
      'the changed trust store cannot be used; the keys read before stay in force',
    ),
  );
  const encryption: WireStages = keyRing === undefined ? {} : personalDataStages(keyRing);
  const stage = (kind: MessageKind): WireStage[] => {
    const mode = (options.verified ?? SIGNED_KINDS).includes(kind) ? signing.mode : 'off';
    // A stage that neither signs nor verifies is left out: a codec without stages skips the
    // seal and open passes on every message.
    if (mode === 'off' && signing.signingKey === undefined) return [...(encryption[kind] ?? [])];
    return [
      ...(encryption[kind] ?? []),
      signingStage({
        kind,
        mode,
        signingKey: signing.signingKey,
        readerKey: signing.readerKey,
        trustStore: signing.trustStore,
        onVerified: (outcome) => verifications?.inc(kind, outcome),
        onUnverified: (error) =>
          logger.warn(
            { event: 'signature.unverified', kind, code: error.code, path: error.path, reason: error.message },
            'a message failed signature verification and is processed (BATON_SIGNATURES=warn)',
          ),
      }),
    ];
  };
  return {
    handoff: stage('handoff'),
    lifecycle: stage('lifecycle'),
    outcome: stage('outcome'),
    staged: [...(encryption.staged ?? [])],
  };
}
