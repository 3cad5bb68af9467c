import { describe, expect, it } from 'vitest';
import {
  applyJsonMutation,
  flipBits,
  insertAfter,
  nestedText,
  overwriteText,
  type JsonMutation,
} from './fuzz-inputs.js';

const valid = { metadata: { task_id: 't-1', priority: 'HIGH' }, list: ['a', 'b'] };
/** Paths in order: /metadata, /metadata/task_id, /metadata/priority, /list, /list/0, /list/1. */
const mutation = (action: JsonMutation['action'], pick: number): JsonMutation => ({
  action,
  pick,
  replacement: 7,
  kib: 1,
  depth: 4,
});

describe('the fuzz test’s malformations', () => {
  it('changes the one value a mutation picks, leaving the message it was given as it was', () => {
    expect(applyJsonMutation(valid, mutation('drop', 1))).toBe('{"metadata":{"priority":"HIGH"},"list":["a","b"]}');
    expect(applyJsonMutation(valid, mutation('drop', 4))).toBe(
      '{"metadata":{"task_id":"t-1","priority":"HIGH"},"list":["b"]}',
    );
    expect(applyJsonMutation(valid, mutation('retype', 2))).toBe(
      '{"metadata":{"task_id":"t-1","priority":7},"list":["a","b"]}',
    );
    expect(applyJsonMutation(valid, mutation('enum', 8))).toBe(
      '{"metadata":{"task_id":"t-1","priority":"NOT_A_PRIORITY"},"list":["a","b"]}',
    );
    expect(applyJsonMutation(valid, mutation('empty', 3))).toBe(
      '{"metadata":{"task_id":"t-1","priority":"HIGH"},"list":[]}',
    );
    expect(JSON.parse(applyJsonMutation(valid, mutation('huge', 1))).metadata.task_id).toBe('x'.repeat(1_024));
    expect(applyJsonMutation(valid, mutation('nest', 5))).toBe(
      '{"metadata":{"task_id":"t-1","priority":"HIGH"},"list":["a",{"n":[{"n":[0]}]}]}',
    );
    expect(valid).toEqual({ metadata: { task_id: 't-1', priority: 'HIGH' }, list: ['a', 'b'] });
  });

  it('writes a duplicated key into the text, before the one JSON.parse keeps', () => {
    const text = applyJsonMutation(valid, mutation('duplicate', 1));
    expect(text).toBe('{"metadata":{"task_id":7,"task_id":"t-1","priority":"HIGH"},"list":["a","b"]}');
    expect(JSON.parse(text)).toEqual(valid);
    expect(applyJsonMutation(valid, mutation('duplicate', 4))).toBe(
      '{"metadata":7,"metadata":{"task_id":"t-1","priority":"HIGH"},"list":["a","b"]}',
    );
  });

  it('nests objects and arrays in turn, as deep as asked', () => {
    expect(nestedText(1)).toBe('{"n":0}');
    expect(nestedText(4)).toBe('{"n":[{"n":[0]}]}');
    // 10,000 objects and 10,000 arrays around the 0; JSON.parse reads it, JSON.stringify could not write it.
    const deep = nestedText(20_000);
    expect(deep).toHaveLength(10_000 * '{"n":}'.length + 10_000 * '[]'.length + 1);
    expect(deep.startsWith('{"n":[{"n":[')).toBe(true);
    expect(() => JSON.parse(deep)).not.toThrow();
  });

  it('flips the bits named, counted from the first byte’s lowest, wrapping past the end', () => {
    expect(flipBits(Buffer.from([0x00, 0xff]), [0, 9, 16 + 7])).toEqual(Buffer.from([0x81, 0xfd]));
  });

  it('puts bad bytes over or after a text, in place', () => {
    const bytes = Buffer.from('ab John Doe cd');
    expect(overwriteText(bytes, 'John', Buffer.from([0xff, 0xfe]))).toEqual(
      Buffer.from('ab \xff\xfehn Doe cd', 'latin1'),
    );
    expect(insertAfter(bytes, 'John', Buffer.from([0x80]))).toEqual(
      Buffer.concat([Buffer.from('ab John'), Buffer.from([0x80]), Buffer.from(' Doe cd')]),
    );
    expect(() => overwriteText(bytes, 'Jane', Buffer.from([0x80]))).toThrow('"Jane" is not in the bytes');
  });
});
