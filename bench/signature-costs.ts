/**
 * The per-message cost of signatures (issue 13), in the bench's own process: the RFC 8785
 * canonical JSON alone, signing (canonical JSON + Ed25519) and verifying (canonical JSON + Ed25519
 * + the trust store's lookup); and of the other wire stage, the personal data stage's seal and
 * open (@baton/field-encryption: the personal fields encrypted under one data key, and decrypted);
 * against what every message costs already, the codec's Avro encode and decode + JSON Schema check
 * (an AvroCodec with its schema registered, no stages). On the seed
 * 000 escalation and on the same message carrying SEED_LARGE_ACTIONS previous actions, since the
 * canonical form and the hash inside Ed25519 grow with the message while the curve's work does not.
 */
import { createRequire } from 'node:module';
import {
  fieldEncryptionStage,
  fixedKeyRing,
  generateKeyRingEntry,
  keyRingFileText,
  parseKeyRing,
} from '@baton/field-encryption';
import {
  canonicalJson,
  SEAL_HEADER,
  signingStage,
  signMessage,
  TrustStore,
  verifySignature,
} from '@baton/message-signing';
import type { HandoffMessage } from '@baton/protocol';
import { AvroCodec, HANDOFF_CODEC_SPEC, type SchemaRegistryClient } from '@baton/wire';
import { TestSigningKeys } from '../test/helpers/signing-keys.js';
import { timePerCall, type MicroTimingOptions } from './micro-timing.js';
import {
  SIGNATURE_OPERATIONS,
  costRatios,
  type SignatureCostRow,
  type SignatureCosts,
  type SignatureOperation,
} from './signature-figures.js';

const require = createRequire(import.meta.url);

/** Previous actions of the larger message: a long-running task's history. */
export const SEED_LARGE_ACTIONS = 50;

/**
 * 0.5 s of warm-up and 9 rounds of 0.1 s per operation: about 20 s for the two messages, and on
 * a quiet core the rounds agree within a few percent.
 */
const TIMING = { warmupMs: 500, roundMs: 100, rounds: 9 } as const satisfies MicroTimingOptions;

const SENDER = 'customer_service_agent_001';

function seedEscalation(): HandoffMessage {
  return structuredClone(require('@baton/schemas/fixtures/seed-000-escalation-full.json')) as HandoffMessage;
}

/** The seed with `count` previous actions, a minute apart up to its own timestamp. */
function withPreviousActions(message: HandoffMessage, count: number): HandoffMessage {
  const sentAt = Date.parse(message.metadata.timestamp);
  return {
    ...message,
    context: {
      ...message.context,
      previous_actions: Array.from({ length: count }, (_, i) => ({
        action_type: i % 2 === 0 ? 'DIAGNOSTIC_ATTEMPT' : 'CUSTOMER_CONTACTED',
        details: `Step ${i + 1}: checked the line and the router's logs, and told the customer what was found.`,
        timestamp: new Date(sentAt - (count - i) * 60_000).toISOString(),
      })),
    },
  };
}

export interface SignatureCostOptions {
  /** The registry the codec registers its schema with: decoding looks the writer schema up there, as a service does. */
  registry: SchemaRegistryClient;
  progress(text: string): void;
}

export async function measureSignatureCosts(options: SignatureCostOptions): Promise<SignatureCosts> {
  const { progress } = options;
  const codec = new AvroCodec(options.registry, HANDOFF_CODEC_SPEC);
  await codec.register();
  // A key file and a trust store file as a service reads them (0600 key, in a fresh temp dir), removed at the end.
  const keys = new TestSigningKeys();
  try {
    const key = keys.issue(SENDER, 'bench-signature-costs');
    // The handoff's two readers, as a deployment names them: the sender seals for both.
    const routerKey = keys.issue('router', 'bench-costs-router', ['router'], { reads: ['handoff'] });
    keys.issue('gateway', 'bench-costs-gateway', ['*'], { reads: ['handoff'] });
    const trustStore = new TrustStore({ file: keys.trustStoreFile });
    const sealer = signingStage({ kind: 'handoff', mode: 'off', signingKey: key, trustStore });
    const reader = signingStage({ kind: 'handoff', mode: 'required', signingKey: routerKey, trustStore });
    // A key ring held in memory: reading its file is a service's start, not a message's cost.
    const personalData = fieldEncryptionStage(
      'handoff',
      fixedKeyRing(parseKeyRing(keyRingFileText([generateKeyRingEntry('bench-personal-data')]), 'bench')),
    );
    const seed = seedEscalation();
    const messages: [string, HandoffMessage][] = [
      ['seed 000 escalation', seed],
      [`seed 000 + ${SEED_LARGE_ACTIONS} previous_actions`, withPreviousActions(seed, SEED_LARGE_ACTIONS)],
    ];
    const rows: SignatureCostRow[] = [];
    for (const [name, message] of messages) {
      const signed = signMessage('handoff', message, key);
      const bytes = codec.encode(message);
      // What a stage's open hands the verifier: the decoded message as plain fields.
      const received = signed as unknown as Record<string, unknown>;
      const encrypted = personalData.seal(message) as HandoffMessage;
      const sealHeader = sealer.headers?.(message, bytes)?.[SEAL_HEADER];
      const sealedFacts = () => ({
        value: bytes,
        header: (name: string) => (name === SEAL_HEADER ? sealHeader : undefined),
      });
      const batches: Record<SignatureOperation, (iterations: number) => void | Promise<void>> = {
        canonicalJson: (n) => {
          for (let i = 0; i < n; i += 1) canonicalJson(message);
        },
        sign: (n) => {
          for (let i = 0; i < n; i += 1) signMessage('handoff', message, key);
        },
        verify: (n) => {
          for (let i = 0; i < n; i += 1) verifySignature('handoff', received, trustStore);
        },
        seal: (n) => {
          for (let i = 0; i < n; i += 1) sealer.headers?.(message, bytes);
        },
        checkSeal: (n) => {
          for (let i = 0; i < n; i += 1) reader.open(message, sealedFacts());
        },
        personalSeal: (n) => {
          for (let i = 0; i < n; i += 1) personalData.seal(message);
        },
        personalOpen: (n) => {
          for (let i = 0; i < n; i += 1) personalData.open(encrypted);
        },
        avroEncode: (n) => {
          for (let i = 0; i < n; i += 1) codec.encode(message);
        },
        avroDecode: async (n) => {
          for (let i = 0; i < n; i += 1) await codec.decode(bytes);
        },
      };
      const timings = {} as SignatureCostRow['timings'];
      for (const operation of SIGNATURE_OPERATIONS) {
        timings[operation] = await timePerCall(batches[operation], TIMING);
        progress(`signature costs, ${name}: ${operation} ${timings[operation].medianUs.toFixed(1)} µs`);
      }
      rows.push({
        message: name,
        bytes: {
          canonicalJson: Buffer.byteLength(canonicalJson(message)),
          avro: bytes.length,
          avroSigned: codec.encode(signed).length,
          avroEncrypted: codec.encode(encrypted).length,
        },
        timings,
        ratios: costRatios(timings),
      });
    }
    return { ...TIMING, rows };
  } finally {
    keys.cleanup();
  }
}
