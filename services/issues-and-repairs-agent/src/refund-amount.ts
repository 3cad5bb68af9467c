import type { Immutable, JsonValue } from '@baton/protocol';

export type RefundAmount =
  { kind: 'none' } | { kind: 'known'; value: number; currency: string } | { kind: 'unreadable' };

const CURRENCY = /^[A-Z]{3}$/;

/**
 * attributes.amount as the customer's channel states it: a plain number of US dollars, or
 * `{ value, currency }` as APPROVAL_REQUEST's amount. Anything else is unreadable, which is not the
 * same as absent: an amount nobody can read is never refunded automatically.
 */
export function readRefundAmount(amount: Immutable<JsonValue> | undefined): RefundAmount {
  if (amount === undefined) return { kind: 'none' };
  if (typeof amount === 'number') {
    return Number.isFinite(amount) && amount >= 0 ? { kind: 'known', value: amount, currency: 'USD' } : unreadable;
  }
  if (typeof amount !== 'object' || amount === null || Array.isArray(amount)) return unreadable;
  const { value, currency } = amount as { value?: unknown; currency?: unknown };
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return unreadable;
  if (typeof currency !== 'string' || !CURRENCY.test(currency)) return unreadable;
  return { kind: 'known', value, currency };
}

const unreadable: RefundAmount = { kind: 'unreadable' };
