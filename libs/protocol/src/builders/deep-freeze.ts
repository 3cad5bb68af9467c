import type { Immutable } from '../handoff/handoff-message.js';

/** Freezes `value` and everything reachable from it, so a built message cannot change later. */
export function deepFreeze<T>(value: T): Immutable<T> {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value as Immutable<T>;
}
