import { BatonError } from '@baton/errors';
import type { WireStage } from '@baton/wire';

/** What wrappingStage seals a context into: none of the context's text shows. */
export interface Wrapped {
  wrapped: string;
}

/**
 * For unit tests: a stage standing in for the personal data encryption of stored contexts. It
 * seals a context whole into base64 and opens only what it sealed, failing with
 * PERSONAL_DATA_UNREADABLE otherwise as the encryption does, so a test sees whether the bytes
 * stored and the context read went through it.
 */
export function wrappingStage(): WireStage {
  return {
    seal: (context): Wrapped => ({ wrapped: Buffer.from(JSON.stringify(context)).toString('base64') }),
    open(stored) {
      const wrapped = (stored as Partial<Wrapped> | null)?.wrapped;
      if (typeof wrapped !== 'string') throw new BatonError('PERSONAL_DATA_UNREADABLE', 'the context was not sealed');
      return JSON.parse(Buffer.from(wrapped, 'base64').toString('utf8')) as unknown;
    },
  };
}
