import type { WireStages } from '@baton/wire';
import { fieldEncryptionStage } from './field-encryption-stage.js';
import type { KeyRingSource } from './key-ring.js';
import { PersonalFields } from './personal-fields.js';

/**
 * The encryption stage of each kind of message a service writes, for `serviceCodecs`. A signing
 * stage goes after it in each list, so the signature covers the ciphertext and a service without
 * the key ring can still verify.
 */
export function personalDataStages(keyRing: KeyRingSource, fields = new PersonalFields()): Required<WireStages> {
  return {
    handoff: [fieldEncryptionStage('handoff', keyRing, fields)],
    lifecycle: [fieldEncryptionStage('lifecycle', keyRing, fields)],
    staged: [fieldEncryptionStage('staged', keyRing, fields)],
  };
}
