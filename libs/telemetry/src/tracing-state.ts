let on = false;

/**
 * Whether this process exports spans. Code on the hot path of every message asks this first and
 * skips its spans when off, so a service without tracing pays one call, not the no-op API's objects.
 */
export function isTracingOn(): boolean {
  return on;
}

export function setTracingOn(value: boolean): void {
  on = value;
}
