import { isBatonError } from '@baton/errors';
import { isEncryptedValue } from '@baton/protocol';
import { openValue } from './envelope-cipher.js';
import { mapStringsWhere } from './json-walk.js';
import type { KeyRingSource } from './key-ring.js';
import { PersonalFields, type PersonalMessageKind } from './personal-fields.js';

/** What a viewer without the right to see personal data sees in its place. */
export const MASKED = '•••';

const masked = (value: unknown): unknown => (value === undefined || value === null ? value : MASKED);

/**
 * How a message body is shown to people (the gateway's API and page): masked for a viewer without
 * the right to personal data, in clear for one with it. Masking covers the personal fields whether
 * or not they came encrypted (a record published without encryption shows no more), and any
 * encrypted value elsewhere. Revealing decrypts what the key ring can; what it cannot stays masked.
 */
export class PersonalDataView {
  constructor(
    private readonly keyRing: KeyRingSource | undefined,
    private readonly fields: PersonalFields = new PersonalFields(),
  ) {}

  masked(kind: PersonalMessageKind, message: unknown): unknown {
    return mapStringsWhere(this.fields.map(kind, message, masked), isEncryptedValue, masked);
  }

  revealed(message: unknown): unknown {
    const keyRing = this.keyRing;
    if (keyRing === undefined) return mapStringsWhere(message, isEncryptedValue, masked);
    const dataKeys = new Map<string, Buffer>();
    return mapStringsWhere(message, isEncryptedValue, (text, pointer) => {
      try {
        return openValue(text as string, keyRing, dataKeys, pointer);
      } catch (error) {
        if (isBatonError(error)) return MASKED;
        throw error;
      }
    });
  }
}
