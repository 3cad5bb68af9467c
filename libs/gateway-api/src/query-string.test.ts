import { describe, expect, it } from 'vitest';
import { queryString } from './query-string.js';

describe('queryString', () => {
  it('repeats lists, skips absent values and encodes', () => {
    expect(queryString({ task_id: 't 1', header: ['a=1', 'b=2'], limit: 5, cursor: undefined })).toBe(
      '?task_id=t+1&header=a%3D1&header=b%3D2&limit=5',
    );
    expect(queryString({ cursor: undefined })).toBe('');
  });
});
