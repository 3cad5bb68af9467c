import { BatonError } from '@baton/errors';
import { CONTEXT_REF_PATHS } from './stored-context-ref.js';

/** CONTEXT_NOT_FOUND: the reference names records that are not (or no longer) there. */
export function contextNotFound(uri: string, reason: string, details: Record<string, unknown> = {}): BatonError {
  return new BatonError('CONTEXT_NOT_FOUND', `context ${uri}: ${reason}`, {
    path: CONTEXT_REF_PATHS.uri,
    details: { uri, ...details },
  });
}
