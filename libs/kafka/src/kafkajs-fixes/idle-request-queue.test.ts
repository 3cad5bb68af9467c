import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../create-kafka.js';
import {
  idleRequestQueuePatched,
  installedKafkajsVersion,
  kafkajsRequestQueue,
  patchIdleRequestQueue,
  PATCHED_KAFKAJS_VERSION,
} from './idle-request-queue.js';

interface TestQueue {
  pending: unknown[];
  inflight: Map<number, unknown>;
  throttledUntil: number;
  push(request: object): void;
  maybeThrottle(ms: number | null): void;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
  fulfillRequest(response: { correlationId: number; payload: Buffer; size: number }): void;
}

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function queue(maxInFlightRequests: number | null = null): TestQueue {
  const RequestQueue = kafkajsRequestQueue();
  return new RequestQueue({
    maxInFlightRequests,
    requestTimeout: 30_000,
    enforceRequestTimeout: false,
    clientId: 'test',
    broker: '127.0.0.1:9092',
    logger: silent,
  }) as TestQueue;
}

/** A request as a connection pushes it; `sent` counts how often it went out. */
function request(correlationId: number): { pushed: object; sent: () => number } {
  let sent = 0;
  const entry = {
    correlationId,
    apiKey: 1,
    apiName: 'Fetch',
    apiVersion: 11,
    resolve: () => undefined,
    reject: () => undefined,
  };
  return { pushed: { entry, expectResponse: true, sendRequest: () => (sent += 1) }, sent: () => sent };
}

describe('the idle RequestQueue fix (kafkajs #1556)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is written for the kafkajs installed, which libs/kafka pins exactly', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(installedKafkajsVersion()).toBe(PATCHED_KAFKAJS_VERSION);
    expect(manifest.dependencies.kafkajs).toBe(PATCHED_KAFKAJS_VERSION);
  });

  it('is applied once @baton/kafka is loaded, and only once', () => {
    expect(idleRequestQueuePatched()).toBe(true);
    expect(patchIdleRequestQueue()).toEqual({ status: 'already-applied', version: PATCHED_KAFKAJS_VERSION });
  });

  it("patches the module kafkajs's connections load", () => {
    const require = createRequire(import.meta.url);
    const connection = require.resolve('kafkajs/src/network/connection.js');
    expect(require.resolve('kafkajs/src/network/requestQueue/index.js')).toBe(
      join(dirname(connection), 'requestQueue', 'index.js'),
    );
  });

  it('arms no timer while nothing is pending, as after every response', () => {
    const idle = queue();
    const { pushed } = request(1);
    idle.push(pushed);
    idle.fulfillRequest({ correlationId: 1, payload: Buffer.alloc(0), size: 0 });
    idle.checkPendingRequests();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('arms no timer while throttled with nothing pending', () => {
    const throttled = queue();
    throttled.maybeThrottle(500);
    throttled.checkPendingRequests();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sends a request pushed while throttled when the throttle ends, then arms nothing', () => {
    const throttled = queue();
    throttled.maybeThrottle(50);
    const { pushed, sent } = request(1);
    throttled.push(pushed);
    expect(sent()).toBe(0);
    vi.advanceTimersByTime(49);
    expect(sent()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(sent()).toBe(1);
    expect(throttled.pending).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('follows a throttle extended while a check is armed', () => {
    const throttled = queue();
    throttled.maybeThrottle(20);
    const { pushed, sent } = request(1);
    throttled.push(pushed);
    throttled.maybeThrottle(100);
    vi.advanceTimersByTime(99);
    expect(sent()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(sent()).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('still checks a pending request whose throttle ended just as the check was armed (kafkajs #1532)', () => {
    const marginal = queue();
    const { pushed, sent } = request(1);
    // What push leaves when the throttle ends between its own test and the scheduling: a pending
    // request, and a throttle that is over.
    marginal.maybeThrottle(1);
    marginal.push(pushed);
    vi.clearAllTimers();
    (marginal as unknown as { throttleCheckTimeoutId: null }).throttleCheckTimeoutId = null;
    marginal.throttledUntil = Date.now();
    marginal.scheduleCheckPendingRequests();
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(10);
    expect(sent()).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sends a request held back by the in-flight limit once the one in flight completes', () => {
    const limited = queue(1);
    const first = request(1);
    const second = request(2);
    limited.push(first.pushed);
    limited.push(second.pushed);
    expect([first.sent(), second.sent()]).toEqual([1, 0]);
    limited.fulfillRequest({ correlationId: 1, payload: Buffer.alloc(0), size: 0 });
    expect(second.sent()).toBe(1);
  });
});
