import { expect, test } from 'vitest';
import { OutputTail } from './output-tail.js';

test('lines split across chunks come back whole, once', () => {
  const tail = new OutputTail();

  expect(tail.push('first li')).toEqual([]);
  expect(tail.push('ne\r\nsecond line\nthi')).toEqual(['first line', 'second line']);
  expect(tail.toString()).toBe('first line\nsecond line\nthi');
});

test('only the last lines are kept', () => {
  const tail = new OutputTail(2);

  tail.push('one\ntwo\nthree\nfour\n');

  expect(tail.toString()).toBe('three\nfour');
});
