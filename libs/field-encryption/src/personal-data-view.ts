import { isBatonError } from '@baton/errors';
import { isEncryptedValue } from '@baton/protocol';
import { openValue } from './envelope-cipher.js';
import { mapStringsWhere } from './json-walk.js';
import type { KeyRingSource } from './key-ring.js';
import { PersonalFields, type PersonalMessageKind } from './personal-fields.js';

/** What a viewer without the right to see personal data sees in its place. */
export const MASKED = '•••';

const masked = (value: unknown): unknown => (value === undefined || value === null ? value : MASKED);

/** Shorter clear values are not looked for in text: masking every `Al` or `42` would garble it. */
const MIN_QUOTED_LENGTH = 3;

/** The strings and numbers a personal field holds, at any depth. */
function leavesOf(value: unknown, found: Set<string>): void {
  if (typeof value === 'string' || typeof value === 'number') {
    const text = String(value);
    if (text.length >= MIN_QUOTED_LENGTH && !isEncryptedValue(text)) found.add(text);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) leavesOf(item, found);
  }
}

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

  /** The JSON Pointers of the personal fields `message` holds in clear (see PersonalFields.inClear). */
  inClear(kind: PersonalMessageKind, message: unknown): string[] {
    return this.fields.inClear(kind, message);
  }

  /**
   * What masks, in a text about `message` (a header, an error message), every value that one of
   * its personal fields holds in clear: a text that quotes one shows MASKED in its place.
   */
  quotedValueMask(kind: PersonalMessageKind, message: unknown): (text: string) => string {
    const values = new Set<string>();
    this.fields.map(kind, message, (value) => {
      leavesOf(value, values);
      return value;
    });
    // Longest first, so a value containing another is masked whole.
    const ordered = [...values].sort((a, b) => b.length - a.length);
    return (text) => ordered.reduce((masking, value) => masking.split(value).join(MASKED), text);
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
