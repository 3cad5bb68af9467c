import type { ErrorObject, ValidateFunction } from 'ajv';
import { isEncryptedValue, valueAtPointer } from './encrypted-value.js';
import type { ValidationIssue } from './validation-issue.js';

const RANGE_KEYWORDS = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
]);

function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Turns one Ajv finding into a Baton issue whose path points at the field itself. */
export function issueFromAjvError(error: ErrorObject, pathPrefix: string): ValidationIssue {
  const path = pathPrefix + error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const field = String(params.missingProperty);
      return {
        code: 'FIELD_REQUIRED',
        path: `${path}/${escapePointerToken(field)}`,
        message: `required field '${field}' is missing`,
      };
    }
    case 'additionalProperties': {
      const field = String(params.additionalProperty);
      return {
        code: 'FIELD_NOT_ALLOWED',
        path: `${path}/${escapePointerToken(field)}`,
        message: `field '${field}' is not allowed here`,
      };
    }
    case 'type':
      return { code: 'FIELD_TYPE', path, message: `must be of type ${String(params.type).replace(',', ' or ')}` };
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).join(', ');
      if (path === '/payload/handoff_type') {
        return { code: 'UNKNOWN_HANDOFF_TYPE', path, message: `unknown handoff_type; expected one of ${allowed}` };
      }
      return { code: 'FIELD_ENUM', path, message: `must be one of ${allowed}` };
    }
    case 'format':
      return { code: 'FIELD_FORMAT', path, message: `must be a valid ${String(params.format)}` };
    case 'pattern':
      return { code: 'FIELD_PATTERN', path, message: `must match ${String(params.pattern)}` };
    default:
      if (RANGE_KEYWORDS.has(error.keyword)) {
        return { code: 'FIELD_OUT_OF_RANGE', path, message: error.message ?? `breaks ${error.keyword}` };
      }
      return { code: 'FIELD_INVALID', path, message: error.message ?? `breaks ${error.keyword}` };
  }
}

/** What a field's clear text decides and its ciphertext cannot show. */
const CLEAR_TEXT_KEYWORDS = new Set(['type', 'format', 'pattern', 'minLength', 'maxLength']);

/**
 * True for a finding about an encrypted personal field: its type, format, pattern and length are
 * those of the clear text, which a reader without the key ring cannot see, so such a finding must
 * not refuse the message. Anything else is still checked, enumerations too: a closed vocabulary
 * (priority, handoff_type, severity) is what routing and logic read, never personal data.
 */
export function isAboutEncryptedValue(error: ErrorObject, value: unknown): boolean {
  return CLEAR_TEXT_KEYWORDS.has(error.keyword) && isEncryptedValue(valueAtPointer(value, error.instancePath));
}

/** Every issue `validate` finds in `value`, with paths under `pathPrefix`; encrypted values are taken as valid. */
export function collectIssues(validate: ValidateFunction, value: unknown, pathPrefix: string): ValidationIssue[] {
  if (validate(value)) return [];
  return (validate.errors ?? [])
    .filter((error) => !isAboutEncryptedValue(error, value))
    .map((error) => issueFromAjvError(error, pathPrefix));
}
