import { createRequire } from 'node:module';

/**
 * kafkajs 2.2.4 keeps every connection busy while it is idle: RequestQueue's
 * `scheduleCheckPendingRequests` (src/network/requestQueue/index.js) arms a timer even when no
 * request is pending, with a delay of `throttledUntil - Date.now()`, which is negative unless a
 * throttle is in force; Node runs it after 1 ms, the check finds nothing and arms the next one. A
 * thousand wake-ups a second per connection: about 5 % of a core for an idle Baton service.
 * Upstream: https://github.com/tulios/kafkajs/issues/1556, fixed by
 * https://github.com/tulios/kafkajs/pull/1667, never released (2.2.4 is the last release).
 *
 * The replacement below is that fix: a check is armed only while a request is pending. Everything
 * else is kept as 2.2.4 has it, in particular the fix of https://github.com/tulios/kafkajs/pull/1532
 * (a pending request whose throttle has already ended by the time the check is armed still gets
 * one, after CHECK_PENDING_REQUESTS_INTERVAL, rather than none, which left the connection hung
 * until the broker closed it). A request blocked only by the in-flight limit is also still checked
 * every CHECK_PENDING_REQUESTS_INTERVAL, as in 2.2.4, besides when an in-flight one completes.
 *
 * It replaces a method of kafkajs's own prototype, so it is tied to the version it was written
 * against: with any other version installed it is not applied (`PATCHED_KAFKAJS_VERSION` is pinned
 * in libs/kafka/package.json, and a unit test fails when the installed version differs, so an
 * upgrade has to look at whether the patch is still needed).
 */
export const PATCHED_KAFKAJS_VERSION = '2.2.4';

/** 2.2.4's own interval for re-checking a pending request (a module constant there, so repeated here). */
const CHECK_PENDING_REQUESTS_INTERVAL = 10;

/** The part of kafkajs's RequestQueue the patch reads and writes. */
interface RequestQueueState {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

export type IdleRequestQueuePatch =
  { status: 'applied' | 'already-applied'; version: string } | { status: 'skipped'; version: string; reason: string };

const PATCHED = Symbol.for('baton.kafkajs.idleRequestQueue');

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

const requireFromHere = createRequire(import.meta.url);

/** kafkajs's RequestQueue class: the module its connections load, so patching it reaches them. */
export function kafkajsRequestQueue(): { prototype: RequestQueueState } & (new (options: object) => unknown) {
  return requireFromHere('kafkajs/src/network/requestQueue/index.js') as ReturnType<typeof kafkajsRequestQueue>;
}

/** The installed kafkajs's version. */
export function installedKafkajsVersion(): string {
  return (requireFromHere('kafkajs/package.json') as { version: string }).version;
}

/** Whether this process's kafkajs has the fix. */
export function idleRequestQueuePatched(): boolean {
  return (kafkajsRequestQueue().prototype as { [PATCHED]?: true })[PATCHED] === true;
}

/** Applies the fix once per process (kafkajs's module is shared, so later calls find it applied). */
export function patchIdleRequestQueue(): IdleRequestQueuePatch {
  const version = installedKafkajsVersion();
  if (version !== PATCHED_KAFKAJS_VERSION) {
    return {
      status: 'skipped',
      version,
      reason: `written for kafkajs ${PATCHED_KAFKAJS_VERSION}; see whether kafkajs ${version} still needs it`,
    };
  }
  const prototype = kafkajsRequestQueue().prototype as RequestQueueState & { [PATCHED]?: true };
  if (prototype[PATCHED]) return { status: 'already-applied', version };
  if (typeof prototype.scheduleCheckPendingRequests !== 'function') {
    throw new Error(`kafkajs ${version} has no RequestQueue.scheduleCheckPendingRequests to patch`);
  }
  prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
  prototype[PATCHED] = true;
  return { status: 'applied', version };
}
