import { BatonError, type ErrorCode } from '@baton/errors';
import type { ValidationIssue } from './validation-issue.js';

/**
 * Thrown when a handoff message is invalid; `issues` holds every finding. The error's own code is
 * the most specific one that applies, so dead-letter headers and metrics can tell a message from
 * another protocol major or with an unknown handoff_type from an ordinary schema violation.
 */
export class HandoffValidationError extends BatonError {
  readonly issues: readonly ValidationIssue[];

  constructor(issues: readonly ValidationIssue[]) {
    const first = issues[0];
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    const where = first?.path ? `${first.path}: ` : '';
    super(errorCodeFor(issues), `invalid handoff message: ${where}${first?.message ?? 'unknown reason'}${more}`, {
      path: first?.path,
      details: { issues },
    });
    this.name = 'HandoffValidationError';
    this.issues = issues;
  }
}

function errorCodeFor(issues: readonly ValidationIssue[]): ErrorCode {
  if (issues.some((issue) => issue.code === 'UNSUPPORTED_PROTOCOL_VERSION')) return 'UNSUPPORTED_PROTOCOL_VERSION';
  if (issues.some((issue) => issue.code === 'UNKNOWN_HANDOFF_TYPE')) return 'UNKNOWN_HANDOFF_TYPE';
  return 'VALIDATION_FAILED';
}
