/**
 * The stable codes of single validation findings. Each finding names the offending field by
 * JSON Pointer (`/payload/data/customer_info/name`), so a sender can fix the exact field.
 */
export const VALIDATION_ISSUE_CODES = {
  FIELD_REQUIRED: 'A required field is missing.',
  FIELD_NOT_ALLOWED: 'A field that the schema does not define is present.',
  FIELD_TYPE: 'A field has the wrong JSON type.',
  FIELD_ENUM: 'A field is not one of its allowed values.',
  FIELD_FORMAT: 'A string field is not in its format (uuid, date-time).',
  FIELD_PATTERN: 'A string field does not match its pattern.',
  FIELD_OUT_OF_RANGE: 'A number, string length, array length or nesting depth is outside its bounds.',
  FIELD_INVALID: 'A field breaks another schema rule.',
  FIELD_MISMATCH: 'A field that repeats another field of the message holds a different value.',
  UNKNOWN_HANDOFF_TYPE: 'payload.handoff_type is not a type this protocol version defines.',
  UNSUPPORTED_PROTOCOL_VERSION: 'metadata.protocol_version has a major version this reader does not speak.',
} as const;

export type ValidationIssueCode = keyof typeof VALIDATION_ISSUE_CODES;

export interface ValidationIssue {
  code: ValidationIssueCode;
  /** JSON Pointer to the field; '' for the message itself. */
  path: string;
  message: string;
}
