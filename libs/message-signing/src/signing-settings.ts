import { configInvalid, optionalSetting, type Env } from '@baton/errors';
import { READER_KEY_VARIABLES, SIGNING_KEY_VARIABLES, signingKeyFromFile, type SigningKey } from './message-signer.js';
import { SIGNATURE_MODES, type SignatureMode } from './signing-stage.js';
import { TRUST_STORE_VARIABLE, TrustStore } from './trust-store.js';

export const SIGNATURE_MODE_VARIABLE = 'BATON_SIGNATURES';

/** A service's signing key, its verification mode and its trust store, read and checked at start. */
export interface SigningSettings {
  mode: SignatureMode;
  signingKey?: SigningKey;
  /** A key it reads seals with besides its own (READER_KEY_VARIABLES). */
  readerKey?: SigningKey;
  trustStore?: TrustStore;
}

/**
 * BATON_SIGNATURES (off, warn or required; off when unset), BATON_TRUST_STORE_FILE (needed unless
 * off), BATON_SIGNING_KEY_FILE and BATON_SIGNING_KEY_ID (together: the service signs what it
 * writes), BATON_READER_KEY_FILE and BATON_READER_KEY_ID (together: a key it also reads seals with). Signing does not depend on the mode, so a fleet can start signing before it verifies.
 * Every problem is CONFIG_INVALID naming its variable.
 */
export function signingSettingsFromEnv(env: Env): SigningSettings {
  const raw = optionalSetting(env, SIGNATURE_MODE_VARIABLE) ?? 'off';
  if (!(SIGNATURE_MODES as string[]).includes(raw)) {
    throw configInvalid(
      SIGNATURE_MODE_VARIABLE,
      `${SIGNATURE_MODE_VARIABLE} must be one of ${SIGNATURE_MODES.join(', ')}`,
    );
  }
  const mode = raw as SignatureMode;
  const trustStoreFile = optionalSetting(env, TRUST_STORE_VARIABLE);
  if (mode !== 'off' && trustStoreFile === undefined) {
    throw configInvalid(TRUST_STORE_VARIABLE, `${SIGNATURE_MODE_VARIABLE}=${mode} needs ${TRUST_STORE_VARIABLE}`);
  }
  return {
    mode,
    signingKey: signingKeyFromFile(
      optionalSetting(env, SIGNING_KEY_VARIABLES.id),
      optionalSetting(env, SIGNING_KEY_VARIABLES.file),
    ),
    readerKey: signingKeyFromFile(
      optionalSetting(env, READER_KEY_VARIABLES.id),
      optionalSetting(env, READER_KEY_VARIABLES.file),
      READER_KEY_VARIABLES,
    ),
    trustStore: mode === 'off' || trustStoreFile === undefined ? undefined : new TrustStore({ file: trustStoreFile }),
  };
}
