import { createRequire } from 'node:module';

/**
 * Two timers of kafkajs 2.2.4's RequestQueue (src/network/requestQueue/index.js), one per
 * connection, keep every idle connection busy. A Baton agent holds about 25 connections (each
 * client has its own, two of them to a single broker), and on a small VM a wake-up costs more than
 * the little work it finds (an empty 10 ms interval alone: 1.3 % of a core):
 *
 * 1. `scheduleCheckPendingRequests` arms a timer even when no request is pending, with a delay of
 *    `throttledUntil - Date.now()`, negative unless a throttle is in force; Node runs it after
 *    1 ms, the check finds nothing and arms the next one: up to a thousand wake-ups a second per
 *    connection. Measured with the 14 services of `npm start` idle: 5-7 % of a core each before,
 *    3-4 % with this fix alone. Upstream: https://github.com/tulios/kafkajs/issues/1556, fixed by
 *    https://github.com/tulios/kafkajs/pull/1667, never released (2.2.4 is the last release).
 *    The replacement is that fix: a check is armed only while a request is pending. The rest is
 *    kept as 2.2.4 has it, in particular the fix of https://github.com/tulios/kafkajs/pull/1532 (a
 *    pending request whose throttle has already ended by the time the check is armed still gets
 *    one, after CHECK_PENDING_REQUESTS_INTERVAL, rather than none, which left the connection hung
 *    until the broker closed it), and a request blocked only by the in-flight limit is still
 *    checked every CHECK_PENDING_REQUESTS_INTERVAL besides when an in-flight one completes.
 *
 * 2. With `enforceRequestTimeout` (the default), `scheduleRequestTimeoutCheck` runs an interval of
 *    min(requestTimeout, 100 ms) from connect to disconnect, looking for requests in flight past
 *    their timeout (30 s by default): ten wake-ups a second per connection, also when nothing is
 *    in flight. Here one timer per process checks every connection with a request in flight, once
 *    a second, and runs only while there is one: a request still times out, up to a second after
 *    its timeout rather than a tenth. Not an upstream fix: Baton's. With the event-loop monitor's
 *    (see @baton/runtime's metrics), these wake-ups were about 1.2 % of a core of an idle agent.
 *
 * Both replace methods of kafkajs's own prototype, so they are tied to the version they were
 * written against: with any other version installed they are not applied (the version is pinned in
 * libs/kafka/package.json, and a unit test fails when the installed one differs, so an upgrade has
 * to look at whether they are still needed and still fit).
 */
export const PATCHED_KAFKAJS_VERSION = '2.2.4';

/** 2.2.4's own interval for re-checking a pending request (a module constant there, so repeated here). */
const CHECK_PENDING_REQUESTS_INTERVAL = 10;
/** How often requests in flight are checked against their timeout, at most. */
const REQUEST_TIMEOUT_CHECK_INTERVAL_MS = 1_000;

interface InFlightRequest {
  sentAt: number;
  requestTimeout: number;
  timeoutRequest(): void;
}

/** The part of kafkajs's RequestQueue the patch reads and writes. */
interface RequestQueueState {
  pending: unknown[];
  inflight: Map<number, InFlightRequest>;
  enforceRequestTimeout: boolean;
  isConnected(): boolean;
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
  scheduleRequestTimeoutCheck(): void;
  sendSocketRequest(request: unknown): void;
  destroy(): void;
}

export type IdleRequestQueuePatch =
  { status: 'applied' | 'already-applied'; version: string } | { status: 'skipped'; version: string; reason: string };

const PATCHED = Symbol.for('baton.kafkajs.idleRequestQueue');
/** Set on a queue between its connect and its destroy: requests it sends are checked for timeouts. */
const CHECKS_TIMEOUTS = Symbol('baton.kafkajs.checksTimeouts');

type PatchedQueue = RequestQueueState & { [CHECKS_TIMEOUTS]?: boolean };

function scheduleCheckPendingRequests(this: RequestQueueState): void {
  // Nothing pending: a push or a completed request calls this again when there is.
  if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
  const untilUnthrottled = this.throttledUntil - Date.now();
  this.throttleCheckTimeoutId = setTimeout(
    () => {
      this.throttleCheckTimeoutId = null;
      this.checkPendingRequests();
    },
    untilUnthrottled > 0 ? untilUnthrottled : CHECK_PENDING_REQUESTS_INTERVAL,
  );
}

/** Called on connect: from now on, a request sent has the queue checked for timeouts. */
function scheduleRequestTimeoutCheck(this: PatchedQueue): void {
  if (!this.enforceRequestTimeout) return;
  this.destroy();
  this[CHECKS_TIMEOUTS] = true;
  watchTimeouts(this);
}

/** The queues with requests in flight, all checked by one timer, which runs only while there are any. */
const watched = new Set<PatchedQueue>();
let sweepTimer: NodeJS.Timeout | undefined;

function watchTimeouts(queue: PatchedQueue): void {
  if (!queue[CHECKS_TIMEOUTS] || queue.inflight.size === 0) return;
  watched.add(queue);
  if (sweepTimer === undefined) {
    sweepTimer = setInterval(sweepTimeouts, REQUEST_TIMEOUT_CHECK_INTERVAL_MS);
    // The sockets keep the process alive while requests are in flight; this timer need not.
    sweepTimer.unref();
  }
}

function sweepTimeouts(): void {
  for (const queue of watched) {
    // As 2.2.4's interval does, apart from leaving the queue alone once nothing is in flight.
    queue.inflight.forEach((request) => {
      if (Date.now() - request.sentAt > request.requestTimeout) request.timeoutRequest();
    });
    if (!queue.isConnected()) queue.destroy();
    else if (queue.inflight.size === 0) watched.delete(queue);
  }
  if (watched.size === 0) stopSweeping();
}

function unwatchTimeouts(queue: PatchedQueue): void {
  watched.delete(queue);
  if (watched.size === 0) stopSweeping();
}

function stopSweeping(): void {
  clearInterval(sweepTimer);
  sweepTimer = undefined;
}

const requireFromHere = createRequire(import.meta.url);

/** kafkajs's RequestQueue class: the module its connections load, so patching it reaches them. */
export function kafkajsRequestQueue(): { prototype: RequestQueueState } & (new (options: object) => unknown) {
  return requireFromHere('kafkajs/src/network/requestQueue/index.js') as ReturnType<typeof kafkajsRequestQueue>;
}

/** The installed kafkajs's version. */
export function installedKafkajsVersion(): string {
  return (requireFromHere('kafkajs/package.json') as { version: string }).version;
}

/** Whether this process's kafkajs has the fixes. */
export function idleRequestQueuePatched(): boolean {
  return (kafkajsRequestQueue().prototype as { [PATCHED]?: true })[PATCHED] === true;
}

/** Why a fix is not applied to the installed kafkajs: undefined when it is the pinned version. */
export function notPinned(): { status: 'skipped'; version: string; reason: string } | undefined {
  const version = installedKafkajsVersion();
  if (version === PATCHED_KAFKAJS_VERSION) return undefined;
  return {
    status: 'skipped',
    version,
    reason: `written for kafkajs ${PATCHED_KAFKAJS_VERSION}; see whether kafkajs ${version} still needs it`,
  };
}

/** Applies the fixes once per process (kafkajs's module is shared, so later calls find them applied). */
export function patchIdleRequestQueue(): IdleRequestQueuePatch {
  const skipped = notPinned();
  if (skipped) return skipped;
  const version = PATCHED_KAFKAJS_VERSION;
  const prototype = kafkajsRequestQueue().prototype as PatchedQueue & { [PATCHED]?: true };
  if (prototype[PATCHED]) return { status: 'already-applied', version };
  const methods = ['scheduleCheckPendingRequests', 'scheduleRequestTimeoutCheck', 'sendSocketRequest', 'destroy'];
  const missing = methods.filter((name) => typeof prototype[name as keyof RequestQueueState] !== 'function');
  if (missing.length > 0) throw new Error(`kafkajs ${version}'s RequestQueue has no ${missing.join(', ')} to patch`);

  const { sendSocketRequest, destroy } = prototype;
  prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
  prototype.scheduleRequestTimeoutCheck = scheduleRequestTimeoutCheck;
  prototype.sendSocketRequest = function (this: PatchedQueue, request: unknown): void {
    sendSocketRequest.call(this, request);
    watchTimeouts(this);
  };
  prototype.destroy = function (this: PatchedQueue): void {
    destroy.call(this);
    this[CHECKS_TIMEOUTS] = false;
    unwatchTimeouts(this);
  };
  prototype[PATCHED] = true;
  return { status: 'applied', version };
}
