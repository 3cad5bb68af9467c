import { describe, expect, it } from 'vitest';
import { withCreateSpans, withSendSpan } from './messaging-spans.js';
import { isTracingOn } from './tracing-state.js';
import { withSpan } from './with-span.js';

// No SDK registered in this file: every span is the API's no-op one.
describe('without an SDK', () => {
  it('leaves records as they are: the no-op span has no context to give them', async () => {
    expect(isTracingOn()).toBe(false);
    const record = { topic: 't', key: 'k', headers: { traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01` } };
    expect(withCreateSpans([record])).toEqual([record]);
    expect(await withSendSpan(record, undefined, async (traced) => traced)).toEqual(record);
    expect(await withSpan('any', {}, () => 'ran')).toBe('ran');
  });
});
