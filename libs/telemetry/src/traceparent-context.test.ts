import { ROOT_CONTEXT, TraceFlags, createContextKey, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { contextFromTraceparent, traceparentOf } from './traceparent-context.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';

describe('contextFromTraceparent', () => {
  it('makes the header the remote parent span context', () => {
    const parent = trace.getSpanContext(contextFromTraceparent(`00-${TRACE_ID}-${SPAN_ID}-01`));
    expect(parent).toEqual({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: TraceFlags.SAMPLED, isRemote: true });
  });

  it('keeps an unsampled flag, so the sampling decision travels on', () => {
    const parent = trace.getSpanContext(contextFromTraceparent(`00-${TRACE_ID}-${SPAN_ID}-00`));
    expect(parent?.traceFlags).toBe(TraceFlags.NONE);
  });

  it('leaves the base context as it is for an absent, malformed or all-zero header', () => {
    const key = createContextKey('test');
    const base = ROOT_CONTEXT.setValue(key, 'kept');
    for (const header of [
      undefined,
      '',
      'garbage',
      `01-${TRACE_ID}-${SPAN_ID}-01`,
      `00-${TRACE_ID.toUpperCase()}-${SPAN_ID}-01`,
      `00-${'0'.repeat(32)}-${SPAN_ID}-01`,
      `00-${TRACE_ID}-${'0'.repeat(16)}-01`,
    ]) {
      expect(contextFromTraceparent(header, base)).toBe(base);
    }
  });
});

describe('traceparentOf', () => {
  it('writes a span context back as the header it was read from', () => {
    const header = `00-${TRACE_ID}-${SPAN_ID}-01`;
    const spanContext = trace.getSpanContext(contextFromTraceparent(header));
    expect(spanContext && traceparentOf(spanContext)).toBe(header);
    expect(traceparentOf({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: TraceFlags.NONE })).toBe(
      `00-${TRACE_ID}-${SPAN_ID}-00`,
    );
  });
});
