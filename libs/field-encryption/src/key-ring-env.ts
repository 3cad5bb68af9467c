import { KeyRingFile, type KeyRingFileOptions } from './key-ring-file.js';

/** The variable naming the key ring file; a service without it neither encrypts nor decrypts. */
export const KEYRING_FILE_VARIABLE = 'BATON_PII_KEYRING_FILE';

/** The key ring `BATON_PII_KEYRING_FILE` names, read now (CONFIG_INVALID if it cannot be); undefined when unset. */
export function keyRingFromEnv(
  env: Record<string, string | undefined>,
  options: KeyRingFileOptions = {},
): KeyRingFile | undefined {
  const path = env[KEYRING_FILE_VARIABLE]?.trim();
  return path ? new KeyRingFile(path, options) : undefined;
}
