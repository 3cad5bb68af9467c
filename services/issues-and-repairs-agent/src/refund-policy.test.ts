import { describe, expect, it } from 'vitest';
import { hasErrorCode } from '@baton/errors';
import { DEFAULT_AUTO_LIMIT_USD, loadRefundPolicy } from './refund-policy.js';

describe('loadRefundPolicy', () => {
  it('defaults the automatic limit to 100 USD', () => {
    expect(loadRefundPolicy({})).toEqual({ autoLimitUsd: DEFAULT_AUTO_LIMIT_USD });
    expect(DEFAULT_AUTO_LIMIT_USD).toBe(100);
    expect(loadRefundPolicy({ REFUND_AUTO_LIMIT: ' ' })).toEqual({ autoLimitUsd: 100 });
  });

  it('reads REFUND_AUTO_LIMIT, zero included, and freezes the result', () => {
    expect(loadRefundPolicy({ REFUND_AUTO_LIMIT: '250.5' })).toEqual({ autoLimitUsd: 250.5 });
    const none = loadRefundPolicy({ REFUND_AUTO_LIMIT: '0' });
    expect(none).toEqual({ autoLimitUsd: 0 });
    expect(Object.isFrozen(none)).toBe(true);
  });

  it.each(['-1', 'ten', 'Infinity'])('refuses %s with CONFIG_INVALID', (value) => {
    let thrown: unknown;
    try {
      loadRefundPolicy({ REFUND_AUTO_LIMIT: value });
    } catch (error) {
      thrown = error;
    }
    expect(hasErrorCode(thrown, 'CONFIG_INVALID')).toBe(true);
    expect((thrown as Error).message).toBe(
      `REFUND_AUTO_LIMIT must be a non-negative number of US dollars, not "${value}"`,
    );
  });
});
