import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';

describe('canonicalJson (RFC 8785)', () => {
  it('sorts members by UTF-16 code units at every level and writes no whitespace', () => {
    expect(canonicalJson({ b: [3, { z: 1, a: true }], a: null, c: 'x' })).toBe(
      '{"a":null,"b":[3,{"a":true,"z":1}],"c":"x"}',
    );
  });

  it('orders names as RFC 8785 section 3.2.3 does, surrogate pairs by their code units', () => {
    const names = ['\u20ac', '\r', '\ufb33', '1', '\ud83d\ude00', '\u0080', '\u00f6'];
    const text = canonicalJson(Object.fromEntries(names.map((name, index) => [name, index])));
    expect(text).toBe('{"\\r":1,"1":3,"\u0080":5,"\u00f6":6,"\u20ac":0,"\ud83d\ude00":4,"\ufb33":2}');
  });

  it('writes numbers as ECMAScript does (RFC 8785 appendix B)', () => {
    const cases: [number, string][] = [
      [0, '0'],
      [-0, '0'],
      [1e21, '1e+21'],
      [1e-7, '1e-7'],
      [0.000001, '0.000001'],
      [333333333.3333333, '333333333.3333333'],
      [9007199254740992, '9007199254740992'],
      [-1.5, '-1.5'],
    ];
    for (const [value, expected] of cases) expect(canonicalJson(value)).toBe(expected);
  });

  it('escapes only what JSON requires, control characters in lowercase hex', () => {
    expect(canonicalJson('a"b\\c\n\u0001\u001f€\u2028')).toBe('"a\\"b\\\\c\\n\\u0001\\u001f€\u2028"');
  });

  it('leaves out members whose value is undefined, as JSON.stringify does', () => {
    expect(canonicalJson({ a: undefined, b: 1, c: [undefined] })).toBe('{"b":1,"c":[null]}');
  });

  it('refuses what has no JSON form', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, () => 1, 10n]) {
      expect(() => canonicalJson({ value })).toThrow(expect.objectContaining({ code: 'SIGNATURE_INVALID' }));
    }
  });
});
