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
  scheduleRequestTimeoutCheck(): void;
  destroy(): void;
  fulfillRequest(response: { correlationId: number; payload: Buffer; size: number }): void;
}

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function queue(
  maxInFlightRequests: number | null = null,
  options: { enforceRequestTimeout?: boolean; isConnected?: () => boolean } = {},
): TestQueue {
  const RequestQueue = kafkajsRequestQueue();
  const created = new RequestQueue({
    maxInFlightRequests,
    requestTimeout: 30_000,
    enforceRequestTimeout: options.enforceRequestTimeout ?? false,
    isConnected: options.isConnected ?? (() => true),
    clientId: 'test',
    broker: '127.0.0.1:9092',
    logger: silent,
  }) as TestQueue;
  queues.push(created);
  return created;
}

/** Every queue a test made: destroyed after it, as disconnect does, so no check outlives the test. */
const queues: TestQueue[] = [];

/** A request as a connection pushes it; `sent` counts how often it went out, `error` is its rejection. */
function request(correlationId: number): { pushed: object; sent: () => number; error: () => Error | undefined } {
  let sent = 0;
  let error: Error | undefined;
  const entry = {
    correlationId,
    apiKey: 1,
    apiName: 'Fetch',
    apiVersion: 11,
    resolve: () => undefined,
    reject: (reason: Error) => (error = reason),
  };
  return {
    pushed: { entry, expectResponse: true, sendRequest: () => (sent += 1) },
    sent: () => sent,
    error: () => error,
  };
}

describe('the idle RequestQueue fix (kafkajs #1556)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    for (const made of queues.splice(0)) made.destroy();
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

  it('checks no timeouts while nothing is in flight', () => {
    const connected = queue(null, { enforceRequestTimeout: true });
    connected.scheduleRequestTimeoutCheck();
    expect(vi.getTimerCount()).toBe(0);
    const { pushed } = request(1);
    connected.push(pushed);
    expect(vi.getTimerCount()).toBe(1);
    connected.fulfillRequest({ correlationId: 1, payload: Buffer.alloc(0), size: 0 });
    vi.advanceTimersByTime(1_000);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('times out a request in flight at most a second after its timeout, then stops checking', () => {
    const connected = queue(null, { enforceRequestTimeout: true });
    connected.scheduleRequestTimeoutCheck();
    const { pushed, error } = request(1);
    connected.push(pushed);
    vi.advanceTimersByTime(30_000);
    expect(error()).toBeUndefined();
    vi.advanceTimersByTime(1_000);
    expect(error()?.name).toBe('KafkaJSRequestTimeoutError');
    expect(connected.inflight.size).toBe(0);
    vi.advanceTimersByTime(1_000);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('checks every connection with requests in flight with one timer', () => {
    const first = queue(null, { enforceRequestTimeout: true });
    const second = queue(null, { enforceRequestTimeout: true });
    first.scheduleRequestTimeoutCheck();
    second.scheduleRequestTimeoutCheck();
    const late = request(1);
    const answered = request(1);
    first.push(late.pushed);
    second.push(answered.pushed);
    expect(vi.getTimerCount()).toBe(1);
    second.fulfillRequest({ correlationId: 1, payload: Buffer.alloc(0), size: 0 });
    vi.advanceTimersByTime(31_000);
    expect(late.error()?.name).toBe('KafkaJSRequestTimeoutError');
    expect(answered.error()).toBeUndefined();
    vi.advanceTimersByTime(1_000);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops checking once the connection is gone, and starts again on the next connect', () => {
    let connected = true;
    const dropped = queue(null, { enforceRequestTimeout: true, isConnected: () => connected });
    dropped.scheduleRequestTimeoutCheck();
    dropped.push(request(1).pushed);
    connected = false;
    vi.advanceTimersByTime(1_000);
    expect(vi.getTimerCount()).toBe(0);
    dropped.push(request(2).pushed);
    expect(vi.getTimerCount()).toBe(0);
    connected = true;
    dropped.scheduleRequestTimeoutCheck();
    expect(vi.getTimerCount()).toBe(1);
  });

  it('checks no timeouts when they are not enforced, or after destroy', () => {
    const unenforced = queue();
    unenforced.scheduleRequestTimeoutCheck();
    unenforced.push(request(1).pushed);
    expect(vi.getTimerCount()).toBe(0);
    const destroyed = queue(null, { enforceRequestTimeout: true });
    destroyed.scheduleRequestTimeoutCheck();
    destroyed.push(request(1).pushed);
    destroyed.destroy();
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
