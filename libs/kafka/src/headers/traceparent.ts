import { randomBytes } from 'node:crypto';

/** W3C Trace Context `traceparent`: version 00, a 16-byte trace id, an 8-byte parent span id, flags. */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

function hex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

/** A traceparent that starts a new trace (sampled). */
export function newTraceparent(): string {
  return `00-${hex(16)}-${hex(8)}-01`;
}

/**
 * The traceparent of work caused by a message carrying `parent`: the same trace with a new span,
 * so one task's handoffs across agents form one trace. A missing or malformed parent starts a new trace.
 */
export function childTraceparent(parent: string | undefined): string {
  const match = parent === undefined ? null : TRACEPARENT.exec(parent);
  if (!match) return newTraceparent();
  return `00-${match[1]}-${hex(8)}-${match[3]}`;
}

export function traceIdOf(traceparent: string): string | undefined {
  return TRACEPARENT.exec(traceparent)?.[1];
}
