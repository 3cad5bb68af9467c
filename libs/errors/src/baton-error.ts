import { ERROR_CATALOGUE, type ErrorCode } from './error-codes.js';

// Recognised by symbol rather than instanceof, which fails when a module is loaded twice.
const BATON_ERROR = Symbol.for('baton.error');

export interface BatonErrorOptions {
  /** JSON Pointer to the offending field, when the error is about one field. */
  path?: string;
  cause?: unknown;
  /** Extra facts for logs and dead-letter headers; never secrets. */
  details?: Record<string, unknown>;
}

/** The one base of every error Baton raises: a stable `code` and a `retriable` flag. */
export class BatonError extends Error {
  readonly [BATON_ERROR] = true;
  readonly code: ErrorCode;
  readonly retriable: boolean;
  readonly path: string | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: BatonErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'BatonError';
    this.code = code;
    this.retriable = ERROR_CATALOGUE[code].retriable;
    this.path = options.path;
    this.details = options.details;
  }

  toJSON(): { code: ErrorCode; message: string; path?: string; details?: Record<string, unknown> } {
    return {
      code: this.code,
      message: this.message,
      ...(this.path === undefined ? {} : { path: this.path }),
      ...(this.details === undefined ? {} : { details: this.details }),
    };
  }
}

export function isBatonError(value: unknown): value is BatonError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BATON_ERROR] === true;
}

/** True when `value` is a BatonError carrying `code`. */
export function hasErrorCode(value: unknown, code: ErrorCode): value is BatonError {
  return isBatonError(value) && value.code === code;
}
