import { deepFreeze } from '../builders/deep-freeze.js';
import type { Immutable } from '../handoff/handoff-message.js';
import { HandoffValidationError } from './handoff-validation-error.js';
import type { ValidationIssue } from './validation-issue.js';

/**
 * A plain, frozen copy of `value`, checked by `issuesOf`; throws HandoffValidationError listing
 * every issue. The copy is what is checked and returned: the caller's object is left as it was,
 * and what a decoder hands over beyond plain data (the prototype methods of an avsc record) is
 * never taken for a field.
 */
export function parsedCopy<T>(value: unknown, issuesOf: (copy: unknown) => ValidationIssue[]): Immutable<T> {
  const copy = structuredClone(value);
  const issues = issuesOf(copy);
  if (issues.length > 0) throw new HandoffValidationError(issues);
  return deepFreeze(copy as T);
}
