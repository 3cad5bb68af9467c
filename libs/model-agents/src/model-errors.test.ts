import { APICallError, RetryError } from 'ai';
import { describe, expect, it } from 'vitest';
import { modelCallError, retryAfterMs } from './model-errors.js';

function apiError(statusCode: number | undefined, responseHeaders: Record<string, string> = {}): APICallError {
  return new APICallError({
    message: 'failed',
    url: 'http://model.test/v1/chat/completions',
    requestBodyValues: { messages: ['secret conversation'] },
    ...(statusCode === undefined ? {} : { statusCode }),
    responseHeaders,
  });
}

describe('modelCallError', () => {
  it.each([429, 408, 409, 500, 503, 401, 403])(
    'makes HTTP %i MODEL_UNAVAILABLE: the platform, not the message',
    (status) => {
      const error = modelCallError(apiError(status), 1000);
      expect([error.code, error.retriable, error.message]).toEqual([
        'MODEL_UNAVAILABLE',
        true,
        `the model at http://model.test/v1/chat/completions answered HTTP ${status}`,
      ]);
    },
  );

  it('makes no connection and a timeout MODEL_UNAVAILABLE', () => {
    expect(modelCallError(apiError(undefined), 1000).message).toBe(
      'the model at http://model.test/v1/chat/completions could not be reached',
    );
    const timeout = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    expect([modelCallError(timeout, 1500).code, modelCallError(timeout, 1500).message]).toEqual([
      'MODEL_UNAVAILABLE',
      'the model did not answer within 1500 ms',
    ]);
  });

  it('makes another 4xx MODEL_REQUEST_REFUSED, for the dead-letter topic', () => {
    const error = modelCallError(apiError(400), 1000);
    expect([error.code, error.retriable, error.details]).toEqual(['MODEL_REQUEST_REFUSED', false, { status: 400 }]);
  });

  it("classifies the AI SDK's RetryError by its last error", () => {
    const retry = new RetryError({
      message: 'gave up',
      reason: 'maxRetriesExceeded',
      errors: [apiError(500), apiError(400)],
    });
    expect(modelCallError(retry, 1000).code).toBe('MODEL_REQUEST_REFUSED');
  });

  it('never carries the request body', () => {
    expect(JSON.stringify(modelCallError(apiError(500), 1000).toJSON())).not.toContain('secret conversation');
  });
});

describe('retryAfterMs', () => {
  it('reads retry-after-ms, retry-after in seconds and as a date', () => {
    expect(retryAfterMs(apiError(429, { 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(apiError(429, { 'retry-after': '2' }))).toBe(2000);
    const now = Date.parse('2026-11-24T10:00:00Z');
    expect(retryAfterMs(apiError(429, { 'retry-after': 'Tue, 24 Nov 2026 10:00:03 GMT' }), now)).toBe(3000);
    expect(retryAfterMs(apiError(429))).toBeUndefined();
  });
});
