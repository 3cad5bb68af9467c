import { generateKeyPairSync } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { batonTopology } from '@baton/kafka-acls';
import type { SignatureMode } from '@baton/message-signing';

/**
 * The senders the local tools play: `npm run samples` publishes as the chat front end (`user`),
 * the reference escalation's customer service agent, and technical support opening a negotiated
 * handoff. On a real installation each of these would be a client with a key of its own.
 */
export const LOCAL_TOOL_SENDERS = ['user', 'customer_service_agent_001', 'technical_support_agent_pool'];

/**
 * The services that read handoffs from their senders (the router; the gateway, which checks a dead
 * letter's sender before a replay): senders seal each handoff for their keys rather than sign it.
 */
const HANDOFF_READERS = ['router', 'gateway'];
/**
 * The services that read outcome events (the tracker's fold, the gateway's views) share one reader
 * key, which signs for no one: every writer seals each event once, for that key.
 */
const OUTCOME_READERS = ['tracker', 'gateway'];
const OUTCOME_READER_KEY = 'outcome-readers';

export interface SigningIdentities {
  /** The BATON_SIGNATURES, trust store and signing key variables of `service`. */
  serviceEnv(service: string): Record<string, string>;
  /** The signing key variables of the local tools (npm run samples). */
  toolEnv: Record<string, string>;
  trustStoreFile: string;
}

/**
 * What a service signs for: an agent its agent id, the router itself; the tracker and the gateway
 * send for others (the tracker a negotiation's duties on its sender's behalf, the gateway its
 * clients' handoffs), so their keys sign for any sender.
 */
function sendersOf(service: string): string[] {
  const entry = batonTopology().services.find((candidate) => candidate.service === service);
  if (entry === undefined) throw new Error(`no sender identity in Baton's topology for ${service}`);
  if (entry.kind === 'agent') return [entry.agentId];
  return entry.kind === 'router' ? ['router'] : ['*'];
}

/**
 * `npm start`'s signing keys: an Ed25519 key per service and one for the local tools, each in
 * `<secretsDir>/signing/<name>.pem` (0600; only the file's name reaches a process's environment),
 * and the trust store of their public keys. Made fresh at every start, removed with the secrets.
 */
export async function issueSigningIdentities(options: {
  services: readonly string[];
  secretsDir: string;
  mode: SignatureMode;
}): Promise<SigningIdentities> {
  const dir = join(options.secretsDir, 'signing');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const identities = [
    ...options.services.map((service) => ({ name: service, senders: sendersOf(service) })),
    { name: 'local-tools', senders: LOCAL_TOOL_SENDERS },
    { name: OUTCOME_READER_KEY, senders: [] },
  ];
  const keyEnv = new Map<string, Record<string, string>>();
  const entries = await Promise.all(
    identities.map(async ({ name, senders }) => {
      const { privateKey, publicKey } = generateKeyPairSync('ed25519');
      const file = join(dir, `${name}.pem`);
      await writeFile(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
      const keyId = `${name}-local`;
      keyEnv.set(name, { BATON_SIGNING_KEY_FILE: file, BATON_SIGNING_KEY_ID: keyId });
      return {
        key_id: keyId,
        senders,
        public_key: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        ...(HANDOFF_READERS.includes(name) ? { handoff_reader: true } : {}),
        ...(name === OUTCOME_READER_KEY ? { outcome_reader: true } : {}),
      };
    }),
  );
  const trustStoreFile = join(dir, 'trust-store.json');
  await writeFile(trustStoreFile, `${JSON.stringify({ keys: entries }, null, 2)}\n`, { mode: 0o644 });
  return {
    serviceEnv: (service) => {
      const reader = keyEnv.get(OUTCOME_READER_KEY) ?? {};
      return {
        BATON_SIGNATURES: options.mode,
        BATON_TRUST_STORE_FILE: trustStoreFile,
        ...keyEnv.get(service),
        ...(OUTCOME_READERS.includes(service)
          ? { BATON_READER_KEY_FILE: reader.BATON_SIGNING_KEY_FILE!, BATON_READER_KEY_ID: reader.BATON_SIGNING_KEY_ID! }
          : {}),
      };
    },
    toolEnv: keyEnv.get('local-tools') ?? {},
    trustStoreFile,
  };
}
