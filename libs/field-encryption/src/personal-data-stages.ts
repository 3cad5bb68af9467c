import type { WireStage, WireStages } from '@baton/wire';
import { fieldEncryptionStage } from './field-encryption-stage.js';
import type { KeyRingSource } from './key-ring.js';
import { PersonalFields } from './personal-fields.js';

/**
 * The encryption stage of each kind of message a service writes, for `serviceCodecs`. A signing
 * stage goes after it in each list, so the signature covers the ciphertext and a service without
 * the key ring can still verify. Outcome events carry no personal field, so they have none.
 */
export function personalDataStages(
  keyRing: KeyRingSource,
  fields = new PersonalFields(),
): Required<Omit<WireStages, 'outcome'>> {
  return {
    handoff: [fieldEncryptionStage('handoff', keyRing, fields)],
    lifecycle: [fieldEncryptionStage('lifecycle', keyRing, fields)],
    staged: [fieldEncryptionStage('staged', keyRing, fields)],
  };
}

/**
 * The encryption stage of a negotiated handoff's context stored by reference, for the store's
 * writer and reader (@baton/negotiation): the stored bytes hold ciphertext, in the codecs' format,
 * and the context_ref's sha256 and size describe them as stored.
 */
export function storedContextStage(keyRing: KeyRingSource, fields = new PersonalFields()): WireStage {
  return fieldEncryptionStage('context', keyRing, fields);
}
