export { BatonError, isBatonError, hasErrorCode, type BatonErrorOptions } from './baton-error.js';
export { ERROR_CATALOGUE, ERROR_CODES, type ErrorCode } from './error-codes.js';
