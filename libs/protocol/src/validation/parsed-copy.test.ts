import { describe, expect, it } from 'vitest';
import { HandoffValidationError } from './handoff-validation-error.js';
import { MAX_NESTING_DEPTH, parsedCopy } from './parsed-copy.js';

/** Like an avsc record: fields of its own, methods on an enumerable prototype. */
class RecordLike {
  constructor(
    readonly id: string,
    readonly tags: string[],
  ) {}
}
(RecordLike.prototype as unknown as Record<string, unknown>).toBuffer = () => Buffer.alloc(0);

/** `levels` objects, one inside the other, around a string. */
function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 1; level < levels; level += 1) value = { n: value };
  return levels === 0 ? value : { n: value };
}

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

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

  it('takes a value nested as deep as MAX_NESTING_DEPTH and refuses one level more, naming where', () => {
    expect(parsedCopy(nested(MAX_NESTING_DEPTH), () => [])).toStrictEqual(nested(MAX_NESTING_DEPTH));
    const thrown = thrownBy(() => parsedCopy({ payload: { data: [nested(MAX_NESTING_DEPTH)] } }, () => []));
    expect(thrown).toBeInstanceOf(HandoffValidationError);
    expect(thrown).toMatchObject({
      code: 'VALIDATION_FAILED',
      path: expect.stringMatching(/^\/payload\/data\/0(\/n)+$/),
    });
    // The root, payload, data and the array's item: three levels of the limit are above the nest.
    expect((thrown as HandoffValidationError).issues).toEqual([
      {
        code: 'FIELD_OUT_OF_RANGE',
        path: `/payload/data/0${'/n'.repeat(MAX_NESTING_DEPTH - 3)}`,
        message: `nested more than ${MAX_NESTING_DEPTH} objects or arrays deep`,
      },
    ]);
  });

  it('refuses a value nested far past the stack the copy would need, instead of overflowing it', () => {
    const thrown = thrownBy(() => parsedCopy({ 'a/b~c': nested(200_000) }, () => []));
    expect(thrown).toBeInstanceOf(HandoffValidationError);
    expect((thrown as HandoffValidationError).issues.map((issue) => issue.path)).toEqual([
      `/a~1b~0c${'/n'.repeat(MAX_NESTING_DEPTH - 1)}`,
    ]);
  });

  describe('inPlace', () => {
    const inPlace = { inPlace: true };

    it('freezes the value itself, deep, and returns it, copying only the parts that are not plain data', () => {
      const record = new RecordLike('a', ['x']);
      const list = [{ n: 1 }, null];
      const value = { outer: record, list, text: 't', nothing: null };
      const parsed = parsedCopy<typeof value>(value, () => [], inPlace);
      expect(parsed).toBe(value);
      expect(parsed.list).toBe(list);
      for (const part of [parsed, parsed.list, parsed.list[0], parsed.outer, parsed.outer.tags])
        expect(Object.isFrozen(part)).toBe(true);
      // The record-like part is replaced by its plain copy, its prototype's method left behind.
      expect(parsed.outer).not.toBe(record);
      expect(Object.getPrototypeOf(parsed.outer)).toBe(Object.prototype);
      expect(parsed).toStrictEqual({
        outer: { id: 'a', tags: ['x'] },
        list: [{ n: 1 }, null],
        text: 't',
        nothing: null,
      });
      expect(Object.isFrozen(record)).toBe(false);
    });

    it('passes a part frozen already as it is: one walk freezes a part shared twice', () => {
      const shared = { n: 1 };
      const value = { first: shared, second: shared };
      const parsed = parsedCopy<typeof value>(value, () => [], inPlace);
      expect(parsed.first).toBe(shared);
      expect(parsed.second).toBe(shared);
      expect(Object.isFrozen(shared)).toBe(true);
    });

    it('checks the frozen value and throws its issues', () => {
      const issues = [{ code: 'FIELD_REQUIRED' as const, path: '/a', message: 'a is required' }];
      const value = { b: 1 };
      const seen: unknown[] = [];
      const thrown = thrownBy(() =>
        parsedCopy(
          value,
          (checked) => {
            seen.push(checked);
            return issues;
          },
          inPlace,
        ),
      );
      expect(seen).toEqual([value]);
      expect(seen[0]).toBe(value);
      expect((thrown as HandoffValidationError).issues).toEqual(issues);
    });

    it('refuses a value nested one level past MAX_NESTING_DEPTH, naming where, as the copy does', () => {
      expect(parsedCopy(nested(MAX_NESTING_DEPTH), () => [], inPlace)).toStrictEqual(nested(MAX_NESTING_DEPTH));
      const thrown = thrownBy(() => parsedCopy({ a: [nested(MAX_NESTING_DEPTH)] }, () => [], inPlace));
      expect((thrown as HandoffValidationError).issues).toEqual([
        {
          code: 'FIELD_OUT_OF_RANGE',
          path: `/a/0${'/n'.repeat(MAX_NESTING_DEPTH - 2)}`,
          message: `nested more than ${MAX_NESTING_DEPTH} objects or arrays deep`,
        },
      ]);
    });
  });
});
