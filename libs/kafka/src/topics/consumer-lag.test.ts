import { describe, expect, it } from 'vitest';
import { consumerLag } from './consumer-lag.js';

describe('consumerLag', () => {
  it('is the end offset minus the committed offset, per partition in partition order', () => {
    expect(
      consumerLag(
        [
          { partition: 1, low: '0', high: '10' },
          { partition: 0, low: '0', high: '7' },
        ],
        [
          { partition: 0, offset: '7' },
          { partition: 1, offset: '4' },
        ],
      ),
    ).toEqual([
      { partition: 0, lag: 0 },
      { partition: 1, lag: 6 },
    ]);
  });

  it('counts a partition without a committed offset from its low watermark', () => {
    expect(
      consumerLag(
        [
          { partition: 0, low: '5', high: '12' },
          { partition: 1, low: '0', high: '0' },
          { partition: 2, low: '3', high: '9' },
        ],
        [
          { partition: 0, offset: '-1' },
          { partition: 2, offset: '-1' },
        ],
      ),
    ).toEqual([
      { partition: 0, lag: 7 },
      { partition: 1, lag: 0 },
      { partition: 2, lag: 6 },
    ]);
  });

  it('counts a transaction marker after the last consumed record as one offset', () => {
    // Records at 0..3, commit marker at 4: the consumer committed 4 (past the last record), the end is 5.
    expect(consumerLag([{ partition: 0, low: '0', high: '5' }], [{ partition: 0, offset: '4' }])).toEqual([
      { partition: 0, lag: 1 },
    ]);
  });

  it('never goes below zero, e.g. when the end was read before a newer commit', () => {
    expect(consumerLag([{ partition: 0, low: '0', high: '5' }], [{ partition: 0, offset: '8' }])).toEqual([
      { partition: 0, lag: 0 },
    ]);
  });

  it('handles offsets beyond 2^53 exactly before converting the difference', () => {
    expect(
      consumerLag(
        [{ partition: 0, low: '0', high: '9007199254740999' }],
        [{ partition: 0, offset: '9007199254740993' }],
      ),
    ).toEqual([{ partition: 0, lag: 6 }]);
  });
});
