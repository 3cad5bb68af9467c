import { describe, expect, it } from 'vitest';
import { nameBasedUuid } from './name-based-id.js';

describe('nameBasedUuid', () => {
  it('matches the RFC 4122 version-5 reference value', () => {
    // uuid5(NAMESPACE_DNS, "www.example.com") in Python's uuid module.
    expect(nameBasedUuid('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });

  it('gives one name one id, and another name another', () => {
    expect(nameBasedUuid('answer:m-1')).toBe(nameBasedUuid('answer:m-1'));
    expect(nameBasedUuid('answer:m-1')).not.toBe(nameBasedUuid('answer:m-2'));
    expect(nameBasedUuid('answer:m-1')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
