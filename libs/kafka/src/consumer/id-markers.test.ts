import { describe, expect, it } from 'vitest';
import { markedIds, markersRecord } from './id-markers.js';

describe('processed-id markers', () => {
  it('marks every message of a transaction in one record, keyed by its first offset', () => {
    const record = markersRecord(3, '1042', [
      { messageId: 'a', result: 'processed' },
      { messageId: 'b', result: 'dead_lettered' },
      { messageId: 'c', result: 'processed' },
    ]);
    expect(record.partition).toBe(3);
    expect(record.key).toBe('__baton.markers__/1042');
    expect(markedIds(record.key, Buffer.from(record.value))).toEqual([
      { messageId: 'a', result: 'processed' },
      { messageId: 'c', result: 'processed' },
      { messageId: 'b', result: 'dead_lettered' },
    ]);
  });

  it('still reads the one-message markers of earlier versions', () => {
    const value = (result?: string) => Buffer.from(JSON.stringify({ offset: '7', at: '2026-11-01T00:00:00Z', result }));
    expect(markedIds('id-1', value('dead_lettered'))).toEqual([{ messageId: 'id-1', result: 'dead_lettered' }]);
    expect(markedIds('id-2', value())).toEqual([{ messageId: 'id-2', result: 'processed' }]);
    expect(markedIds('id-3', Buffer.from('not json'))).toEqual([{ messageId: 'id-3', result: 'processed' }]);
  });

  it('reads a marker record it cannot parse as marking nothing', () => {
    expect(markedIds('__baton.markers__/5', Buffer.from('{'))).toEqual([]);
    expect(markedIds('__baton.markers__/5', null)).toEqual([]);
  });
});
