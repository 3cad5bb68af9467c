import { parsedCopy, type ParseOptions } from './parsed-copy.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Immutable } from '../handoff/handoff-message.js';
import type { LifecycleMessage } from '../lifecycle/lifecycle-message.js';
import { isAboutEncryptedValue, issueFromAjvError } from './ajv-issues.js';
import { createAjv } from './create-ajv.js';
import { loadLifecycleSchemas } from './lifecycle-schema-files.js';
import { allowUnknownFields, type JsonSchema } from './schema-files.js';
import type { ValidationIssue } from './validation-issue.js';
import { versionReading, type ReadingMode } from './version-reading.js';

function compile(transform: (schema: JsonSchema) => JsonSchema): ValidateFunction {
  const schemas = loadLifecycleSchemas();
  const ajv = createAjv();
  for (const payload of Object.values(schemas.payloads)) ajv.addSchema(transform(payload));
  return ajv.compile(transform(schemas.envelope));
}

let strict: ValidateFunction | undefined;
let lenient: ValidateFunction | undefined;

/** The validator for messages read in `mode`, compiled at the first call. */
export function lifecycleValidator(mode: ReadingMode): ValidateFunction {
  if (mode === 'same') return (strict ??= compile((schema) => schema));
  return (lenient ??= compile(allowUnknownFields));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Turns Ajv's findings into issues, keeping only those a sender can act on: the failure of a
 * message_type's `if` only restates the `then` findings already listed, and TaskContextTransfer's
 * `oneOf` (context_data or context_ref) is reported as the one field to add or to drop.
 */
function schemaIssues(validate: ValidateFunction, value: Record<string, unknown>): ValidationIssue[] {
  if (validate(value)) return [];
  const issues: ValidationIssue[] = [];
  for (const error of validate.errors ?? []) {
    if (error.keyword === 'if' || error.schemaPath.includes('/oneOf/')) continue;
    if (isAboutEncryptedValue(error, value)) continue;
    issues.push(error.keyword === 'oneOf' ? transferModeIssue(error, value) : issueFromAjvError(error, ''));
  }
  return issues;
}

function transferModeIssue(error: ErrorObject, message: Record<string, unknown>): ValidationIssue {
  const payload = isObject(message.payload) ? message.payload : {};
  if ('context_data' in payload && 'context_ref' in payload) {
    return {
      code: 'FIELD_NOT_ALLOWED',
      path: `${error.instancePath}/context_ref`,
      message: 'context_data and context_ref exclude each other: send the context by value or by reference',
    };
  }
  return {
    code: 'FIELD_REQUIRED',
    path: `${error.instancePath}/context_data`,
    message: 'the context is required, by value (context_data) or by reference (context_ref)',
  };
}

/**
 * What JSON Schema cannot say: a payload field that repeats an envelope field (the one routing and
 * correlation read) must hold the same value, and a Heartbeat's agent_id is its sender. A field the
 * schema already faults (wrong type, not allowed for this message_type) is not reported twice.
 */
function mismatchIssues(message: Record<string, unknown>, found: readonly ValidationIssue[]): ValidationIssue[] {
  const payload = message.payload;
  if (!isObject(payload)) return [];
  const pairs: [copyField: string, envelopeField: string][] = [
    ['task_id', 'task_id'],
    ['correlation_id', 'correlation_id'],
  ];
  if (message.message_type === 'Heartbeat') pairs.push(['agent_id', 'sender_id']);
  const issues: ValidationIssue[] = [];
  for (const [copyField, envelopeField] of pairs) {
    const copy = payload[copyField];
    const own = message[envelopeField];
    if (typeof copy !== 'string' || copy === own) continue;
    if (found.some((issue) => issue.path === `/${envelopeField}` || issue.path === `/payload/${copyField}`)) continue;
    issues.push({
      code: 'FIELD_MISMATCH',
      path: `/payload/${copyField}`,
      message:
        typeof own === 'string'
          ? `must equal /${envelopeField} ('${own}')`
          : `repeats /${envelopeField}, which the message does not have`,
    });
  }
  return issues;
}

/**
 * Every way `value` breaks the lifecycle protocol of negotiated handoffs: the envelope, the payload of its
 * message_type, and the agreement of repeated fields. An empty list means valid. Protocol versions
 * are read as for handoff messages: another major is refused alone, a newer minor's unknown
 * fields are accepted.
 */
export function validateLifecycleMessage(value: unknown): ValidationIssue[] {
  if (!isObject(value)) return [{ code: 'FIELD_TYPE', path: '', message: 'a lifecycle message must be a JSON object' }];
  const reading = versionReading(value.protocol_version, '/protocol_version');
  if ('refusal' in reading) return [reading.refusal];
  const issues = schemaIssues(lifecycleValidator(reading.mode), value);
  issues.push(...mismatchIssues(value, issues));
  return issues;
}

/**
 * Validates `value` and returns it as an immutable LifecycleMessage (a frozen copy: the caller's
 * object is left as it was, unless `options.inPlace` gives it up). Throws HandoffValidationError
 * listing every issue.
 */
export function parseLifecycleMessage(value: unknown, options?: ParseOptions): Immutable<LifecycleMessage> {
  return parsedCopy<LifecycleMessage>(value, validateLifecycleMessage, options);
}
