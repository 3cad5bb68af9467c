import { describe, expect, it } from 'vitest';
import { readRefundAmount } from './refund-amount.js';

describe('readRefundAmount', () => {
  it('tells an absent amount from an unreadable one', () => {
    expect(readRefundAmount(undefined)).toEqual({ kind: 'none' });
    expect(readRefundAmount(null)).toEqual({ kind: 'unreadable' });
  });

  it('reads a plain number as US dollars', () => {
    expect(readRefundAmount(49.5)).toEqual({ kind: 'known', value: 49.5, currency: 'USD' });
    expect(readRefundAmount(0)).toEqual({ kind: 'known', value: 0, currency: 'USD' });
  });

  it('reads { value, currency }', () => {
    expect(readRefundAmount({ value: 249.99, currency: 'EUR' })).toEqual({
      kind: 'known',
      value: 249.99,
      currency: 'EUR',
    });
  });

  it.each([
    [-5],
    ['100'],
    [[100]],
    [{ value: '100', currency: 'USD' }],
    [{ value: 100, currency: 'usd' }],
    [{ value: 1 }],
  ])('finds %j unreadable', (amount) => {
    expect(readRefundAmount(amount)).toEqual({ kind: 'unreadable' });
  });
});
