import { describe, expect, it } from 'vitest';
import { HandoffValidationError } from './handoff-validation-error.js';
import { parsedCopy } from './parsed-copy.js';

/** Like an avsc record: fields of its own, methods on an enumerable prototype. */
class RecordLike {
  constructor(
    readonly id: string,
    readonly tags: string[],
  ) {}
}
(RecordLike.prototype as unknown as Record<string, unknown>).toBuffer = () => Buffer.alloc(0);

describe('parsedCopy', () => {
  it('returns a deep, frozen copy in plain objects and arrays, without a prototype’s fields', () => {
    const original = { outer: new RecordLike('a', ['x', 'y']), list: [{ n: 1 }, null], text: 't' };
    const seen: unknown[] = [];
    const copy = parsedCopy<typeof original>(original, (value) => {
      seen.push(value);
      return [];
    });
    expect(seen).toEqual([copy]);
    expect(copy).toStrictEqual({ outer: { id: 'a', tags: ['x', 'y'] }, list: [{ n: 1 }, null], text: 't' });
    expect(Object.getPrototypeOf(copy.outer)).toBe(Object.prototype);
    const inherited: string[] = [];
    for (const key in copy.outer) inherited.push(key);
    expect(inherited).toEqual(['id', 'tags']);
    for (const part of [copy, copy.outer, copy.outer.tags, copy.list, copy.list[0]])
      expect(Object.isFrozen(part)).toBe(true);
    expect(Object.isFrozen(original)).toBe(false);
    expect(Object.isFrozen(original.list[0])).toBe(false);
    expect(copy.outer).not.toBe(original.outer);
  });

  it('copies a Date as a Date, as structuredClone does', () => {
    const at = new Date('2026-11-24T00:00:00Z');
    const copied = parsedCopy<{ at: Date }>({ at }, () => []).at as unknown;
    expect(copied).toBeInstanceOf(Date);
    expect((copied as Date).getTime()).toBe(at.getTime());
    expect(copied).not.toBe(at);
  });

  it('throws every issue the check finds', () => {
    const issues = [{ code: 'FIELD_REQUIRED' as const, path: '/a', message: 'a is required' }];
    const thrown = (() => {
      try {
        parsedCopy({}, () => issues);
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(HandoffValidationError);
    expect((thrown as HandoffValidationError).issues).toEqual(issues);
  });
});
