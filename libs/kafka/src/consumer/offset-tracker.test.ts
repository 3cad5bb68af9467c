import { describe, expect, it } from 'vitest';
import { OffsetTracker } from './offset-tracker.js';

describe('OffsetTracker', () => {
  it('commits past everything once messages finish in order', () => {
    const tracker = new OffsetTracker();
    expect(tracker.committableAfter()).toBeUndefined();
    tracker.begin(10n);
    expect(tracker.committableAfter(10n)).toBe(11n);
    tracker.finish(10n);
    tracker.begin(11n);
    tracker.finish(11n);
    expect(tracker.committableAfter()).toBe(12n);
  });

  it('holds the commit at a parked message while later ones finish', () => {
    const tracker = new OffsetTracker();
    tracker.begin(5n);
    tracker.begin(6n);
    tracker.begin(7n);
    expect(tracker.committableAfter(6n)).toBe(5n);
    tracker.finish(6n);
    tracker.finish(7n);
    expect(tracker.committableAfter()).toBe(5n);
    expect(tracker.committableAfter(5n)).toBe(8n);
    tracker.finish(5n);
    expect(tracker.committableAfter()).toBe(8n);
    expect(tracker.unfinishedCount).toBe(0);
  });
});
