export { BatonError, isBatonError, hasErrorCode, type BatonErrorOptions } from './baton-error.js';
export { ERROR_CATALOGUE, ERROR_CODES, type ErrorCode } from './error-codes.js';
export {
  configInvalid,
  optionalSetting,
  pemFileSetting,
  readSettingFile,
  secretSetting,
  type Env,
  type PemLabel,
} from './env-settings.js';
