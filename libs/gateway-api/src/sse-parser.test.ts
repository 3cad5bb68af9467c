import { describe, expect, it } from 'vitest';
import { SseParser } from './sse-parser.js';

describe('SseParser', () => {
  it('reads events split anywhere across chunks, skipping comments and retry', () => {
    const parser = new SseParser();
    const stream =
      'retry: 1000\n\nid: 1.0\nevent: step\ndata: {"a":1}\n\n: ping\n\nid: 1.1\r\nevent: reply\r\ndata: {"b":2}\r\n\r\n';
    const events = [...stream].flatMap((character) => parser.push(character));
    expect(events).toEqual([
      { id: '1.0', event: 'step', data: '{"a":1}' },
      { id: '1.1', event: 'reply', data: '{"b":2}' },
    ]);
  });

  it('joins data lines, names an unnamed event message, and keeps an event incomplete until its blank line', () => {
    const parser = new SseParser();
    expect(parser.push('data: one\ndata: two\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'message', data: 'one\ntwo' }]);
    expect(parser.push('id: 7\n\n')).toEqual([]);
  });
});
