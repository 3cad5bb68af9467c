import { parsedCopy, type ParseOptions } from './parsed-copy.js';
import type { ValidateFunction } from 'ajv';
import { isHandoffType, type HandoffType } from '../handoff/handoff-type.js';
import type { HandoffMessage, Immutable } from '../handoff/handoff-message.js';
import { collectIssues } from './ajv-issues.js';
import { createAjv } from './create-ajv.js';
import { allowUnknownFields, loadHandoffSchemas, type JsonSchema } from './schema-files.js';
import type { ValidationIssue } from './validation-issue.js';
import { versionReading, type ReadingMode } from './version-reading.js';

interface CompiledValidators {
  envelope: ValidateFunction;
  data: Record<HandoffType, ValidateFunction>;
}

function compile(transform: (schema: JsonSchema) => JsonSchema): CompiledValidators {
  const schemas = loadHandoffSchemas();
  const ajv = createAjv();
  for (const shared of schemas.shared) ajv.addSchema(transform(shared));
  const data = {} as Record<HandoffType, ValidateFunction>;
  for (const [type, schema] of Object.entries(schemas.data)) {
    data[type as HandoffType] = ajv.compile(transform(schema));
  }
  return { envelope: ajv.compile(transform(schemas.envelope)), data };
}

let strict: CompiledValidators | undefined;
let lenient: CompiledValidators | undefined;

/** The validators for messages read in `mode`, compiled at the first call. */
export function handoffValidators(mode: ReadingMode): CompiledValidators {
  if (mode === 'same') return (strict ??= compile((schema) => schema));
  return (lenient ??= compile(allowUnknownFields));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Every way `value` breaks the handoff protocol: the envelope schema, then `payload.data` against
 * the schema of its handoff_type. An empty list means valid.
 */
export function validateHandoff(value: unknown): ValidationIssue[] {
  if (!isObject(value)) return [{ code: 'FIELD_TYPE', path: '', message: 'a handoff message must be a JSON object' }];
  const metadata = value.metadata;
  const reading = versionReading(
    isObject(metadata) ? metadata.protocol_version : undefined,
    '/metadata/protocol_version',
  );
  if ('refusal' in reading) return [reading.refusal];
  const compiled = handoffValidators(reading.mode);
  const issues = collectIssues(compiled.envelope, value, '');
  const payload = value.payload;
  if (isObject(payload) && isHandoffType(payload.handoff_type) && isObject(payload.data)) {
    issues.push(...collectIssues(compiled.data[payload.handoff_type], payload.data, '/payload/data'));
  }
  return issues;
}

/**
 * Validates `value` and returns it as an immutable HandoffMessage (a frozen copy: the caller's
 * object is left as it was, unless `options.inPlace` gives it up). Throws HandoffValidationError
 * listing every issue.
 */
export function parseHandoff(value: unknown, options?: ParseOptions): Immutable<HandoffMessage> {
  return parsedCopy<HandoffMessage>(value, validateHandoff, options);
}
