import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KEYRING_FILE_VARIABLE, generateKeyRingEntry, keyRingFileText } from '@baton/field-encryption';

/**
 * The services given the personal data key ring: the gateway (it encrypts what it publishes and
 * shows clear text to the personal-data role) and the agents that act on customers' data. The
 * router and the tracker route and follow tasks on fields that are not encrypted, and the
 * workflow agents (planner, worker, compiler, reviewer) never act on a customer: they pass
 * ciphertext on as they got it. Kubernetes and docker-compose mount the key ring into the same ones.
 */
export const PERSONAL_DATA_READERS: readonly string[] = [
  'gateway',
  'triage-agent',
  'sales-agent',
  'issues-and-repairs-agent',
  'human-agent',
  'customer-service-agent',
  'technical-support-agent',
  'level3-network-expert-agent',
];

/**
 * Writes a fresh key ring (one key, primary, named after today) to `<secretsDir>/pii-keyring.json`,
 * 0600 in a 0700 folder: its content is never on a command line or in a log, only its path.
 * Returns what each service is given: the file for the readers, nothing for the others. With
 * `required` (`npm start -- --secure`), the router also gets the file and BATON_PII_REQUIRED=true:
 * it refuses a handoff whose personal fields arrive in clear, and encrypts them in its dead letter.
 */
export async function writePersonalDataKeyRing(
  secretsDir: string,
  options: { required: boolean } = { required: false },
): Promise<(service: string) => Record<string, string>> {
  await mkdir(secretsDir, { recursive: true, mode: 0o700 });
  const path = join(secretsDir, 'pii-keyring.json');
  const keyId = `pii-local-${new Date().toISOString().slice(0, 10)}`;
  await writeFile(path, keyRingFileText([generateKeyRingEntry(keyId)]), { mode: 0o600 });
  const given: Record<string, string> = { [KEYRING_FILE_VARIABLE]: path };
  return (service) => {
    if (options.required && service === 'router') return { ...given, BATON_PII_REQUIRED: 'true' };
    return PERSONAL_DATA_READERS.includes(service) ? given : {};
  };
}
