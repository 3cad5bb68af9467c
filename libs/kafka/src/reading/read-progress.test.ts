import { describe, expect, it } from 'vitest';
import { ReadProgress, parsePartitionKey, partitionKey } from './read-progress.js';

const ends = (entries: [string, bigint][]) => new Map(entries);

describe('ReadProgress', () => {
  it('finishes a read once every partition reached its offset, and not before', () => {
    const progress = new ReadProgress();
    let done = 0;
    progress.wait(
      ends([
        ['t:0', 5n],
        ['t:1', 3n],
      ]),
      () => (done += 1),
    );
    progress.advanced('t:0', 5n);
    expect(done).toBe(0);
    expect(progress.wanted('t:0')).toBe(false);
    expect(progress.wanted('t:1')).toBe(true);
    progress.advanced('t:1', 2n);
    expect(done).toBe(0);
    progress.advanced('t:1', 3n);
    expect(done).toBe(1);
    expect(progress.wantedKeys()).toEqual(new Set());
  });

  it('finishes at once a read of partitions already read to their offsets', () => {
    const progress = new ReadProgress();
    progress.advanced('t:0', 7n);
    let done = 0;
    progress.wait(ends([['t:0', 7n]]), () => (done += 1));
    expect(done).toBe(1);
    expect(progress.behind(ends([['t:0', 8n]]))).toEqual(ends([['t:0', 8n]]));
    expect(progress.behind(ends([['t:0', 7n]]))).toEqual(new Map());
  });

  it('keeps a partition wanted while any read still waits for it', () => {
    const progress = new ReadProgress();
    const calls: string[] = [];
    progress.wait(ends([['t:0', 2n]]), () => calls.push('first'));
    progress.wait(ends([['t:0', 4n]]), () => calls.push('second'));
    progress.advanced('t:0', 2n);
    expect(calls).toEqual(['first']);
    expect(progress.wanted('t:0')).toBe(true);
    progress.advanced('t:0', 4n);
    expect(calls).toEqual(['first', 'second']);
    expect(progress.wanted('t:0')).toBe(false);
  });

  it('drops a read when told to, and never calls it', () => {
    const progress = new ReadProgress();
    let done = 0;
    const drop = progress.wait(ends([['t:0', 2n]]), () => (done += 1));
    drop();
    expect(progress.wanted('t:0')).toBe(false);
    progress.advanced('t:0', 2n);
    expect(done).toBe(0);
  });

  it('never moves a position back, and forgets positions on a restart', () => {
    const progress = new ReadProgress();
    progress.advanced('t:0', 9n);
    progress.advanced('t:0', 4n);
    expect(progress.behind(ends([['t:0', 9n]]))).toEqual(new Map());
    progress.restarted();
    expect(progress.behind(ends([['t:0', 9n]]))).toEqual(ends([['t:0', 9n]]));
  });
});

describe('partition keys', () => {
  it('round-trip a topic with dots and dashes', () => {
    expect(parsePartitionKey(partitionKey('baton.agent-x.inbox', 12))).toEqual({
      topic: 'baton.agent-x.inbox',
      partition: 12,
    });
  });
});
