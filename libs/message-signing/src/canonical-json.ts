import { BatonError } from '@baton/errors';

/**
 * The JSON Canonicalization Scheme (RFC 8785) of a JSON value: object members sorted by the
 * UTF-16 code units of their names, no whitespace, strings and numbers serialized as ECMAScript's
 * JSON.stringify does. It is what a signature covers, so a sender in any language that
 * implements RFC 8785 produces the same bytes. Members whose value is undefined are left out, as
 * JSON.stringify leaves them out; a number that is not finite has no JSON form and is refused.
 */
export function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) {
        throw new BatonError('SIGNATURE_INVALID', `${value} has no JSON form and cannot be signed`);
      }
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value))
        return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
      const record = value as Record<string, unknown>;
      const members: string[] = [];
      for (const name of Object.keys(record).sort()) {
        if (record[name] !== undefined) members.push(`${JSON.stringify(name)}:${canonicalJson(record[name])}`);
      }
      return `{${members.join(',')}}`;
    }
    default:
      throw new BatonError('SIGNATURE_INVALID', `a ${typeof value} has no JSON form and cannot be signed`);
  }
}
