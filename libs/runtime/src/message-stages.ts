import { signingStage, type MessageKind, type SigningSettings } from '@baton/message-signing';
import type { WireStage, WireStages } from '@baton/wire';
import { Counter, type Registry } from 'prom-client';
import type { Logger } from './logger.js';
import { METRIC_NAMES } from './metrics.js';

/**
 * The codec stages of a service's handoffs and lifecycle messages: what it writes is signed with
 * its key, what it reads verified by its mode (see @baton/message-signing). Each verification is
 * counted by kind and outcome (`valid` or the failure's code); in `warn` mode a failure is also
 * logged, with the message's id and sender but never its body.
 */
export function messageStages(signing: SigningSettings, logger: Logger, metrics: Registry): Required<WireStages> {
  const verifications = new Counter({
    name: METRIC_NAMES.signatureVerifications,
    help: 'Signatures verified on messages read, by kind (handoff, lifecycle) and outcome (valid or the failure code)',
    labelNames: ['kind', 'outcome'],
    registers: [metrics],
  });
  signing.trustStore?.onReloadFailed((error) =>
    logger.error(
      { event: 'trust-store.reload-failed', code: 'CONFIG_INVALID', reason: error.message },
      'the changed trust store cannot be used; the keys read before stay in force',
    ),
  );
  const stage = (kind: MessageKind): WireStage[] => [
    signingStage({
      kind,
      mode: signing.mode,
      signingKey: signing.signingKey,
      trustStore: signing.trustStore,
      onVerified: (outcome) => verifications.inc({ kind, outcome }),
      onUnverified: (error) =>
        logger.warn(
          { event: 'signature.unverified', kind, code: error.code, path: error.path, reason: error.message },
          'a message failed signature verification and is processed (BATON_SIGNATURES=warn)',
        ),
    }),
  ];
  return { handoff: stage('handoff'), lifecycle: stage('lifecycle') };
}
