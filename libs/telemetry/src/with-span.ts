import {
  SpanStatusCode,
  context,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanKind,
} from '@opentelemetry/api';

/** Baton's instrumentation scope: every span Baton makes comes from this tracer. */
export const tracer = trace.getTracer('baton');

export interface WithSpanOptions {
  /** INTERNAL when absent. */
  kind?: SpanKind;
  attributes?: Attributes;
  links?: Link[];
  /** The active context when absent: the span is a child of the span in progress. */
  parent?: Context;
}

/** Marks a span failed by `error`: the exception as an event, the status ERROR with its message. */
export function recordFailure(span: Span, error: unknown): void {
  const exception = error instanceof Error ? error : new Error(String(error));
  span.recordException(exception);
  span.setStatus({ code: SpanStatusCode.ERROR, message: exception.message });
}

/**
 * Runs `fn` inside a new span, which is the active context while `fn` runs (spans started within
 * are its children) and ends when `fn` settles: a throw is recorded on it and rethrown.
 */
export function withSpan<T>(name: string, options: WithSpanOptions, fn: (span: Span) => Promise<T> | T): Promise<T> {
  const { parent = context.active(), ...spanOptions } = options;
  return tracer.startActiveSpan(name, spanOptions, parent, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      recordFailure(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}
