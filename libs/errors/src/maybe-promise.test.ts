import { describe, expect, it } from 'vitest';
import { isPromiseLike } from './maybe-promise.js';

describe('isPromiseLike', () => {
  it('says a Promise or another thenable must be awaited, and a value or a value with a `then` field not', () => {
    expect(isPromiseLike(Promise.resolve(1))).toBe(true);
    const thenable: unknown = { then: (resolve: (value: number) => void) => resolve(1) };
    expect(isPromiseLike(thenable)).toBe(true);
    expect(isPromiseLike({ then: 'later' })).toBe(false);
    expect(isPromiseLike([])).toBe(false);
    expect(isPromiseLike(undefined)).toBe(false);
    expect(isPromiseLike(null)).toBe(false);
    expect(isPromiseLike(0)).toBe(false);
  });
});
