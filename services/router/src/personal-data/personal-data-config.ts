import { configInvalid, optionalSetting, type Env } from '@baton/errors';
import { KEYRING_FILE_VARIABLE } from '@baton/field-encryption';

export const PII_REQUIRED_VARIABLE = 'BATON_PII_REQUIRED';

/** What the router does with personal data in clear (BATON_PII_REQUIRED, BATON_PII_KEYRING_FILE). */
export interface PersonalDataConfig {
  /** True: a handoff whose personal fields arrive in clear is dead-lettered, its fields sealed. */
  required: boolean;
  /** The key ring that seals them; set whenever `required` is. */
  keyRingFile: string | undefined;
}

/**
 * Reads BATON_PII_REQUIRED (`true` or `false`, default `false`). Required without a key ring is
 * CONFIG_INVALID: the router would have to write the clear fields it refuses into its DLQ.
 */
export function loadPersonalDataConfig(env: Env): Readonly<PersonalDataConfig> {
  const setting = optionalSetting(env, PII_REQUIRED_VARIABLE)?.trim().toLowerCase() ?? 'false';
  if (setting !== 'true' && setting !== 'false') {
    throw configInvalid(PII_REQUIRED_VARIABLE, `${PII_REQUIRED_VARIABLE} must be true or false`);
  }
  const keyRingFile = optionalSetting(env, KEYRING_FILE_VARIABLE)?.trim() || undefined;
  if (setting === 'true' && keyRingFile === undefined) {
    throw configInvalid(
      PII_REQUIRED_VARIABLE,
      `${PII_REQUIRED_VARIABLE}=true needs ${KEYRING_FILE_VARIABLE}: the router encrypts the personal fields of what it refuses with it`,
    );
  }
  return Object.freeze({ required: setting === 'true', keyRingFile });
}
