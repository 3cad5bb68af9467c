/**
 * How an encrypted personal field travels: a self-contained string
 * `baton:enc:v1:<key_id>:<wrapped data key>:<iv+ciphertext+tag>` (@baton/field-encryption writes
 * and reads it). The protocol knows the form so that every validator (gateway, services, CLI)
 * tolerates a field it cannot read instead of refusing a message for a value's type or format.
 */
export const ENCRYPTED_VALUE_PREFIX = 'baton:enc:v1:';

/** The schema annotation marking a field that holds personal data (encrypted on the wire, masked in views). */
export const PERSONAL_DATA_KEYWORD = 'x-baton-personal-data';

export function isEncryptedValue(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(ENCRYPTED_VALUE_PREFIX);
}

function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The value a JSON Pointer (`/a/0/b`) names in `root`; undefined when it names nothing. */
export function valueAtPointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let value = root;
  for (const token of pointer.slice(1).split('/')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[unescapePointerToken(token)];
  }
  return value;
}
