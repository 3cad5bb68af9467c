import { deepFreeze } from '../builders/deep-freeze.js';
import type { Immutable } from '../handoff/handoff-message.js';
import { HandoffValidationError } from './handoff-validation-error.js';
import type { ValidationIssue } from './validation-issue.js';

/** Values a plain copy would get wrong: structuredClone copies them, as it always did. */
function isStructured(value: object): boolean {
  return (
    ArrayBuffer.isView(value) ||
    value instanceof Date ||
    value instanceof Map ||
    value instanceof Set ||
    value instanceof RegExp ||
    value instanceof ArrayBuffer
  );
}

/**
 * How deep a message may nest: far deeper than any field the schemas describe, far shallower than
 * where recursive code (this copy, JSON.stringify, Ajv) runs out of stack. A message nested deeper
 * is refused as invalid; before this bound it overflowed the stack and was taken for a transient
 * failure (an HTTP 500, a dead letter only after every retry).
 */
export const MAX_NESTING_DEPTH = 100;

/** Thrown through the copy's recursion when it passes MAX_NESTING_DEPTH; parsedCopy finds where. */
class NestedTooDeep extends Error {}

/**
 * A deep copy of `value` in plain objects and arrays, each frozen as it is made: own enumerable
 * fields only, so the prototype methods of an avsc record are left behind. One pass where
 * structuredClone then deepFreeze took two, and several times cheaper than structuredClone's
 * serializer: a decoded handoff is copied this way on every message a service reads.
 */
function frozenPlainCopy(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_NESTING_DEPTH) throw new NestedTooDeep();
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index += 1) copy[index] = frozenPlainCopy(value[index], depth + 1);
    return Object.freeze(copy);
  }
  if (isStructured(value)) return deepFreeze(structuredClone(value));
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = frozenPlainCopy((value as Record<string, unknown>)[key], depth + 1);
  return Object.freeze(copy);
}

function isPlainData(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return Array.isArray(value) ? prototype === Array.prototype : prototype === Object.prototype || prototype === null;
}

/**
 * `value` deep-frozen where it is, as frozenPlainCopy would copy it: a part that is not plain data
 * (a class instance, a Buffer, a Date) is replaced by its frozen plain copy. Only for a value its
 * caller gives up; an already frozen part was frozen by this walk before (a decoder's shared default).
 */
function frozenInPlace(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  if (!isPlainData(value)) return frozenPlainCopy(value, depth);
  if (depth >= MAX_NESTING_DEPTH) throw new NestedTooDeep();
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const part: unknown = value[index];
      if (typeof part !== 'object' || part === null) continue;
      const frozen = frozenInPlace(part, depth + 1);
      if (frozen !== part) value[index] = frozen;
    }
    return Object.freeze(value);
  }
  const parts = value as Record<string, unknown>;
  // for...in rather than an array of the keys; own keys only, as Object.keys gave.
  for (const key in parts) {
    if (!Object.hasOwn(parts, key)) continue;
    const part = parts[key];
    if (typeof part !== 'object' || part === null) continue;
    const frozen = frozenInPlace(part, depth + 1);
    if (frozen !== part) parts[key] = frozen;
  }
  return Object.freeze(value);
}

export interface ParseOptions {
  /**
   * The caller gives the value up: it is a decoder's fresh output that nothing else holds, so it is
   * frozen where it is instead of copied. Every record a service reads is decoded this way, and the
   * copy was a fifth of what decoding allocated.
   */
  inPlace?: boolean;
}

/** The JSON Pointer of the first object or array in `value` nested deeper than MAX_NESTING_DEPTH. */
function tooDeepPath(value: unknown): string {
  // Iterative, so finding the place cannot overflow the stack the copy overflowed.
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.depth >= MAX_NESTING_DEPTH) return next.path;
    for (const [key, child] of Object.entries(next.value).reverse()) {
      stack.push({
        value: child,
        path: `${next.path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
        depth: next.depth + 1,
      });
    }
  }
  return '';
}

/**
 * A plain, frozen copy of `value`, checked by `issuesOf`; throws HandoffValidationError listing
 * every issue. The copy is what is checked and returned: the caller's object is left as it was,
 * and what a decoder hands over beyond plain data (the prototype methods of an avsc record) is
 * never taken for a field. `issuesOf` must only read (Baton's Ajv neither coerces nor fills defaults).
 * A value nested deeper than MAX_NESTING_DEPTH is refused before it is checked (FIELD_OUT_OF_RANGE).
 * With `inPlace`, the value itself is frozen and returned, its parts that are not plain data copied.
 */
export function parsedCopy<T>(
  value: unknown,
  issuesOf: (copy: unknown) => ValidationIssue[],
  options: ParseOptions = {},
): Immutable<T> {
  let copy: unknown;
  try {
    copy = options.inPlace === true ? frozenInPlace(value, 0) : frozenPlainCopy(value, 0);
  } catch (error) {
    if (!(error instanceof NestedTooDeep)) throw error;
    throw new HandoffValidationError([
      {
        code: 'FIELD_OUT_OF_RANGE',
        path: tooDeepPath(value),
        message: `nested more than ${MAX_NESTING_DEPTH} objects or arrays deep`,
      },
    ]);
  }
  const issues = issuesOf(copy);
  if (issues.length > 0) throw new HandoffValidationError(issues);
  return copy as Immutable<T>;
}
