import { ROOT_CONTEXT, isSpanContextValid, trace, type Context, type SpanContext } from '@opentelemetry/api';

/** W3C Trace Context `traceparent`, version 00: trace id, parent span id, flags. */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * The context a record's `traceparent` header names, as the remote parent of the spans started in
 * it; `base` itself when the header is absent, malformed or all zeros, so the span starts a trace.
 */
export function contextFromTraceparent(traceparent: string | undefined, base: Context = ROOT_CONTEXT): Context {
  const match = traceparent === undefined ? null : TRACEPARENT.exec(traceparent);
  if (!match) return base;
  const spanContext: SpanContext = {
    traceId: match[1] as string,
    spanId: match[2] as string,
    traceFlags: Number.parseInt(match[3] as string, 16),
    isRemote: true,
  };
  return isSpanContextValid(spanContext) ? trace.setSpanContext(base, spanContext) : base;
}

/** The `traceparent` header that makes `spanContext` the parent of whatever reads the record. */
export function traceparentOf(spanContext: SpanContext): string {
  return `00-${spanContext.traceId}-${spanContext.spanId}-${spanContext.traceFlags.toString(16).padStart(2, '0')}`;
}
