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
});
