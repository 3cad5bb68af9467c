import { APICallError } from '@ai-sdk/provider';
import { BatonError, isBatonError } from '@baton/errors';

/**
 * HTTP statuses after which the same request can succeed later: a timeout, a conflict, a rate
 * limit, a server error. 401 and 403 join them: a revoked or missing key is the platform's fault,
 * not the message's, and once an operator fixes it every waiting handoff goes through.
 */
function isOutageStatus(status: number): boolean {
  return status === 401 || status === 403 || status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The AI SDK's RetryError, told by its name: importing `ai` for its class would load it in every agent. */
function lastErrorOfRetries(error: unknown): { found: boolean; lastError?: unknown } {
  return error instanceof Error && error.name === 'AI_RetryError'
    ? { found: true, lastError: (error as Error & { lastError?: unknown }).lastError }
    : { found: false };
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/**
 * A failed model call as a BatonError: MODEL_UNAVAILABLE when trying again later can succeed (a
 * rate limit, a timeout, a server error, no connection, a refused key), which consumers retry
 * without using up the message's retry_count, as they do a Kafka outage; MODEL_REQUEST_REFUSED
 * when the provider refused the request itself, which goes to the dead-letter topic. The message
 * names the status and the provider's URL, never a key or the conversation.
 */
export function modelCallError(error: unknown, timeoutMs: number): BatonError {
  if (isBatonError(error)) return error;
  const retries = lastErrorOfRetries(error);
  if (retries.found) return modelCallError(retries.lastError, timeoutMs);
  if (isTimeout(error)) {
    return new BatonError('MODEL_UNAVAILABLE', `the model did not answer within ${timeoutMs} ms`, { cause: error });
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === undefined || isOutageStatus(status)) {
      const why = status === undefined ? 'could not be reached' : `answered HTTP ${status}`;
      return new BatonError('MODEL_UNAVAILABLE', `the model at ${error.url} ${why}`, {
        cause: error,
        details: { ...(status === undefined ? {} : { status }), retryAfterMs: retryAfterMs(error) ?? null },
      });
    }
    return new BatonError('MODEL_REQUEST_REFUSED', `the model at ${error.url} refused the request: HTTP ${status}`, {
      cause: error,
      details: { status },
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new BatonError('HANDLER_FAILED', `the model call failed: ${message}`, { cause: error });
}

/** How long the provider asked to wait (`retry-after-ms`, or `retry-after` in seconds or as a date). */
export function retryAfterMs(error: APICallError, now: number = Date.now()): number | undefined {
  const headers = error.responseHeaders ?? {};
  const milliseconds = Number(headers['retry-after-ms']);
  if (headers['retry-after-ms'] !== undefined && Number.isFinite(milliseconds)) return Math.max(0, milliseconds);
  const after = headers['retry-after'];
  if (after === undefined) return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
