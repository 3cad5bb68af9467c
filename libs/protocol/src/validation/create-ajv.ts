import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { PERSONAL_DATA_KEYWORD } from './encrypted-value.js';
import { isDateTime } from './string-formats.js';

// ajv-formats is CommonJS with a default export; ESM loaders disagree on where that lands.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

/**
 * The one Ajv set-up for Baton's schemas: every error reported, strict schemas, uuid and date-time
 * formats. The personal-data annotation is a known keyword that checks nothing (strict mode
 * refuses unknown ones): it tells the encryption which fields to encrypt.
 */
export function createAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  // The same format, decided without regular expressions or splitting (string-formats.ts).
  ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
  ajv.addKeyword({ keyword: PERSONAL_DATA_KEYWORD, schemaType: 'boolean' });
  return ajv;
}
