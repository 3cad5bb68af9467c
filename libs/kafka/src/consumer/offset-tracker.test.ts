import { describe, expect, it } from 'vitest';
import { OffsetTracker } from './offset-tracker.js';

describe('OffsetTracker', () => {
  it('commits past everything once messages finish in order', () => {
    const tracker = new OffsetTracker();
    expect(tracker.committable()).toBeUndefined();
    tracker.begin(10);
    expect(tracker.committable()).toBe(10);
    tracker.finish(10);
    tracker.begin(11);
    tracker.finish(11);
    expect(tracker.committable()).toBe(12);
  });

  it('holds the commit at an unfinished message while later ones finish', () => {
    const tracker = new OffsetTracker();
    tracker.begin(5);
    tracker.begin(6);
    tracker.begin(8);
    tracker.finish(6);
    tracker.finish(8);
    expect(tracker.committable()).toBe(5);
    expect(tracker.unfinishedCount).toBe(1);
    tracker.finish(5);
    expect(tracker.committable()).toBe(9);
    expect(tracker.unfinishedCount).toBe(0);
  });

  it('commits past the records a fetch ended in but did not hand over, once all before them finished', () => {
    const tracker = new OffsetTracker();
    tracker.begin(3);
    tracker.begin(4);
    // Offset 5 is the commit marker of the transaction that wrote 3 and 4.
    tracker.skipThrough(3, 5);
    tracker.finish(4);
    expect(tracker.committable()).toBe(3);
    tracker.finish(3);
    expect(tracker.committable()).toBe(6);
    expect(tracker.hasReceived(5)).toBe(true);
    // A skip never goes back, and the next record comes after it.
    tracker.skipThrough(3, 4);
    expect(tracker.committable()).toBe(6);
    tracker.begin(7);
    expect(tracker.committable()).toBe(7);
    expect(() => tracker.skipThrough(5, 4)).toThrow(RangeError);
  });

  it('skips a fetch of markers alone from where reading starts, and none that leaves a gap before it', () => {
    // Reading starts at the committed offset 10; the fetch there brings one marker, at 10.
    const tracker = new OffsetTracker(10);
    expect(tracker.committable()).toBe(10);
    expect(tracker.hasReceived(9)).toBe(true);
    expect(tracker.hasReceived(10)).toBe(false);
    tracker.skipThrough(10, 10);
    expect(tracker.committable()).toBe(11);
    // Markers at 14 and 15 while 11 to 13 have not been received: nothing is skipped.
    tracker.skipThrough(14, 15);
    expect(tracker.committable()).toBe(11);
    expect(tracker.hasReceived(11)).toBe(false);
    tracker.begin(11);
    expect(tracker.committable()).toBe(11);
  });

  it('knows which offsets it received, so a redelivery is recognised', () => {
    const tracker = new OffsetTracker();
    tracker.begin(3);
    tracker.begin(7);
    expect(tracker.hasReceived(2)).toBe(true);
    expect(tracker.hasReceived(7)).toBe(true);
    expect(tracker.hasReceived(8)).toBe(false);
    expect(() => tracker.begin(6)).toThrow('offset 6 begun after 7');
  });

  it('stays exact over many commits while its storage is compacted', () => {
    const tracker = new OffsetTracker();
    for (let offset = 0; offset < 5000; offset += 1) tracker.begin(offset);
    for (let offset = 1; offset < 5000; offset += 1) {
      tracker.finish(offset);
      expect(tracker.committable()).toBe(0);
    }
    tracker.finish(0);
    expect(tracker.committable()).toBe(5000);
    tracker.begin(5000);
    expect(tracker.committable()).toBe(5000);
    expect(tracker.unfinishedCount).toBe(1);
  });

  it('refuses an offset a number cannot hold exactly', () => {
    const tracker = new OffsetTracker();
    expect(() => tracker.begin(2 ** 53)).toThrow(RangeError);
    expect(() => tracker.begin(-1)).toThrow(RangeError);
  });
});
