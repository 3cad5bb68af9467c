export { BatonError, isBatonError, hasErrorCode, type BatonErrorOptions } from './baton-error.js';
export { ERROR_CATALOGUE, ERROR_CODES, OUTAGE_CODES, type ErrorCode } from './error-codes.js';
export {
  configInvalid,
  keyPairSetting,
  optionalSetting,
  pemFileSetting,
  readSettingFile,
  secretSetting,
  type Env,
  type KeyPair,
  type KeyPairVariables,
  type PemLabel,
} from './env-settings.js';
export { isPromiseLike, type MaybePromise } from './maybe-promise.js';
