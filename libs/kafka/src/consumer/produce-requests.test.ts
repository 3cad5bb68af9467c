import { describe, expect, it } from 'vitest';
import { produceRequests, recordBytes, type TransactionRecord } from './produce-requests.js';

const record = (topic: string, key: string, size: number): TransactionRecord => ({
  topic,
  key,
  value: Buffer.alloc(size, 1),
});

describe('recordBytes', () => {
  it('counts the UTF-8 bytes of the key, the value and every header, on top of 64 for the framing', () => {
    expect(
      recordBytes({
        topic: 't',
        key: 'tâche-1',
        value: 'é',
        headers: { ce_id: 'abc', note: 'naïve 😀' },
      }),
    ).toBe(64 + 8 + 2 + (5 + 3) + (4 + 11));
    expect(recordBytes({ topic: 't', key: 'k', value: null })).toBe(65);
    expect(recordBytes({ topic: 't', key: 'k', value: Buffer.alloc(10) })).toBe(75);
  });
});

describe('produceRequests', () => {
  it('puts every record of a small transaction in one request, grouped by topic in order', () => {
    const records = [record('out', 'a', 10), record('processed', 'id-1', 5), record('out', 'b', 10)];
    const requests = produceRequests(records, 1024 * 1024);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.map((topic) => [topic.topic, topic.messages.map((message) => message.key)])).toEqual([
      ['out', ['a', 'b']],
      ['processed', ['id-1']],
    ]);
  });

  it('starts a new request before one would pass the bound, and sends an oversized record alone', () => {
    const small = record('out', 's', 100);
    const bound = recordBytes(small) * 2;
    const requests = produceRequests([small, small, small, record('out', 'big', bound * 3), small], bound);
    expect(requests.map((request) => request.flatMap((topic) => topic.messages.map((message) => message.key)))).toEqual(
      [['s', 's'], ['s'], ['big'], ['s']],
    );
  });

  it('bounds requests by the sizes given for the records, measuring those without one', () => {
    const small = record('out', 's', 100);
    const bound = recordBytes(small) * 2;
    // The first given as twice its size fills a request alone; measured, two would fit together.
    const requests = produceRequests([small, small, small], bound, [bound, 1]);
    expect(requests.map((request) => request.flatMap((topic) => topic.messages.map((message) => message.key)))).toEqual(
      [['s'], ['s', 's']],
    );
  });

  it('makes no request for no records', () => {
    expect(produceRequests([], 100)).toEqual([]);
  });

  it('counts keys, values and headers', () => {
    expect(recordBytes({ topic: 't', key: 'ab', value: 'cde', headers: { h: 'xyz' } })).toBe(64 + 2 + 3 + 1 + 3);
  });
});
