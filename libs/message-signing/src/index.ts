export { canonicalJson } from './canonical-json.js';
export { formatSignature, parseSignature, KEY_ID_PATTERN, type SignatureValue } from './signature-value.js';
export { SIGNED_SHAPES, type MessageKind } from './signed-message.js';
export {
  readSigningKey,
  signMessage,
  signedBytes,
  signingKeyFromFile,
  READER_KEY_VARIABLES,
  SIGNING_KEY_VARIABLES,
  type SigningKey,
} from './message-signer.js';
export { verifySignature, type VerifiedSignature } from './signature-verifier.js';
export {
  parseTrustStore,
  TrustStore,
  TRUST_STORE_VARIABLE,
  type SealedKind,
  type TrustedKey,
  type TrustStoreOptions,
} from './trust-store.js';
export { signingStage, SIGNATURE_MODES, type SignatureMode, type SigningStageOptions } from './signing-stage.js';
export { signingSettingsFromEnv, SIGNATURE_MODE_VARIABLE, type SigningSettings } from './signing-settings.js';
export {
  digestOf,
  SEAL_HEADER,
  SEAL_SCHEME,
  SEALING_SENDER,
  VOUCH_HEADER,
  VerificationSeals,
} from './verification-seal.js';
