import { signingStage, TrustStore } from '@baton/message-signing';
import { AvroCodec, HANDOFF_CODEC_SPEC, type HandoffCodec, type SchemaRegistryClient } from '@baton/wire';
import { TestSigningKeys } from '../test/helpers/signing-keys.js';
import { BENCH_SENDER } from './throughput-bench.js';

const ROUTER = 'router';

/** The keys of a signed bench run, the codec its publisher seals with, and each service's environment. */
export interface BenchSigning {
  /** Seals each handoff as the bench's sender, for the router and the gateway. */
  codec: HandoffCodec;
  routerEnv: Record<string, string>;
  agentEnv: Record<string, string>;
  /** Removes the keys and the trust store. */
  cleanup(): void;
}

/**
 * Keys as in a deployment (npm start --secure's): the router and the gateway read handoffs from
 * their senders, the tracker and the gateway outcome events from their writers through the key
 * they share, and each writer seals what it writes for them (the tracker and the gateway do not
 * run in a bench; their keys are what the writers see). Private keys 0600 in a fresh temp dir
 * (0700), the trust store beside them.
 */
export async function benchSigning(registry: SchemaRegistryClient, agentId: string): Promise<BenchSigning> {
  const keys = new TestSigningKeys();
  try {
    const publisherKey = keys.issue(BENCH_SENDER, 'bench-publisher');
    keys.issue(ROUTER, 'bench-router', [ROUTER], { reads: ['handoff'] });
    keys.issue(agentId, 'bench-agent');
    keys.issue('gateway', 'bench-gateway', ['*'], { reads: ['handoff'] });
    keys.issue('outcome-readers', 'bench-outcome-readers', [], { reads: ['outcome'] });
    // The publisher seals as the handoffs' sender; encoding happens before a pass is timed, as in the throughput rows.
    const codec = new AvroCodec(registry, HANDOFF_CODEC_SPEC, [
      signingStage({
        kind: 'handoff',
        mode: 'off',
        signingKey: publisherKey,
        trustStore: new TrustStore({ file: keys.trustStoreFile }),
      }),
    ]);
    await codec.register();
    return { codec, routerEnv: keys.envFor(ROUTER), agentEnv: keys.envFor(agentId), cleanup: () => keys.cleanup() };
  } catch (error) {
    keys.cleanup();
    throw error;
  }
}

/** Signatures explicitly off for a service, whatever the shell running the bench has set. */
export const SIGNATURES_OFF_ENV: Readonly<Record<string, string>> = {
  BATON_SIGNATURES: 'off',
  BATON_SIGNING_KEY_FILE: '',
  BATON_SIGNING_KEY_ID: '',
};
