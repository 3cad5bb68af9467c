import { describe, expect, it } from 'vitest';
import { OffsetTracker } from './offset-tracker.js';

describe('OffsetTracker', () => {
  it('commits past everything once messages finish in order', () => {
    const tracker = new OffsetTracker();
    expect(tracker.committable()).toBeUndefined();
    tracker.begin(10n);
    expect(tracker.committable()).toBe(10n);
    tracker.finish(10n);
    tracker.begin(11n);
    tracker.finish(11n);
    expect(tracker.committable()).toBe(12n);
  });

  it('holds the commit at an unfinished message while later ones finish', () => {
    const tracker = new OffsetTracker();
    tracker.begin(5n);
    tracker.begin(6n);
    tracker.begin(8n);
    tracker.finish(6n);
    tracker.finish(8n);
    expect(tracker.committable()).toBe(5n);
    expect(tracker.unfinishedCount).toBe(1);
    tracker.finish(5n);
    expect(tracker.committable()).toBe(9n);
    expect(tracker.unfinishedCount).toBe(0);
  });

  it('knows which offsets it received, so a redelivery is recognised', () => {
    const tracker = new OffsetTracker();
    tracker.begin(3n);
    tracker.begin(7n);
    expect(tracker.hasReceived(2n)).toBe(true);
    expect(tracker.hasReceived(7n)).toBe(true);
    expect(tracker.hasReceived(8n)).toBe(false);
    expect(() => tracker.begin(6n)).toThrow('offset 6 begun after 7');
  });

  it('stays exact over many commits while its storage is compacted', () => {
    const tracker = new OffsetTracker();
    for (let offset = 0n; offset < 5000n; offset += 1n) tracker.begin(offset);
    for (let offset = 1n; offset < 5000n; offset += 1n) {
      tracker.finish(offset);
      expect(tracker.committable()).toBe(0n);
    }
    tracker.finish(0n);
    expect(tracker.committable()).toBe(5000n);
    tracker.begin(5000n);
    expect(tracker.committable()).toBe(5000n);
    expect(tracker.unfinishedCount).toBe(1);
  });
});
