import { createRequire } from 'node:module';
import { replacePrototypeMethods, type PrototypePatch } from './module-replacement.js';

/**
 * How long a kafkajs 2.2.4 consumer waits for its fetches (src/consumer/consumerGroup.js, runner.js,
 * src/network/connection.js), made such that a long fetch wait costs nothing but fewer requests.
 * Not upstream fixes (kafkajs has had no release since 2.2.4): Baton's.
 *
 * 1. With every partition paused. ConsumerGroup.fetch, when none of the consumer's partitions is
 *    active (all paused, or none assigned), sleeps `maxWaitTime` and returns no batch; the fetch
 *    loop then calls it again. Nothing cuts that sleep short: `resume()` waits for it to end before
 *    its partition is fetched, and `disconnect()` waits it out too. So a consumer that pauses
 *    everything between short bursts of reading (Baton's processed-id readers between partition
 *    take-ups, an agent's registry reader between refreshes) had to choose: a short wait, and a
 *    wake-up several times a second for nothing (four a second per processed-id reader: about 60 %
 *    of an idle agent's timer wake-ups, measured), or a long one, and every take-up that much
 *    slower. Here the sleep ends at once when the consumer resumes a partition or its runner stops,
 *    and so it can be long: a third of the session timeout, the cadence Kafka advises for heartbeats
 *    (the runner heartbeats after each empty fetch, when its interval is due, so the session stays
 *    alive). The sleep also skips the steps 2.2.4 takes before sleeping (metadata refresh when due,
 *    the stale-assignment check, pending seeks): they are about the partitions to fetch, and they
 *    run at the first fetch after a resume, before anything is fetched.
 *
 * 2. With some partitions paused. A partition resumed while a fetch of the others is in flight is
 *    not in that fetch, and the broker answers one request of a connection at a time, so it is
 *    fetched only once that one returns: up to the whole wait later. Here, while a partition is
 *    paused, the others are fetched with a short wait (WHILE_PAUSED_MAX_WAIT_MS): a take-up that
 *    resumes partitions one after another, or a reader catching a few partitions up, sees each
 *    fetched within it, whatever the consumer's own wait.
 *
 * 3. At a stop. `disconnect()` waits for the fetch in flight twice: the runner's stop waits for its
 *    fetch loop to end, which it does when the fetch returns, and each connection's disconnect
 *    waits for its requests in flight. So a consumer with a long wait took that long to stop (a
 *    whole fleet's stop, and every test's). Here the runner's stop ends its consumer's fetch at once
 *    with no batch, and a connection's disconnect gives up the fetches in flight on it (rejected, the
 *    socket destroyed so their late responses are not read): nothing needs a stopped consumer's
 *    records, which its group fetches again from the committed offsets. The group is still left at
 *    once: kafkajs sends fetches on a connection of their own (ConnectionPool), so the LeaveGroup
 *    does not queue behind the fetch. The broker logs the response it could not send (a WARN,
 *    "no open connection"), as it does when a Java consumer closes during a fetch.
 *
 * 4. After a stop. The runner's `fetch` answers no batch once the runner stopped, and a fetcher
 *    loops on `fetch` until the fetch manager stops it. But the fetch manager starts new fetchers
 *    whenever one finds the cluster's brokers changed (KafkaJSFetcherRebalanceError), and that
 *    can happen after the stop, which has already stopped the fetchers there were: a broker
 *    restarting as a consumer stops (a rolling restart). The new fetchers then loop on no batch
 *    forever, a core at 100 % in a tight loop, and the runner's stop, which waits for the fetch
 *    manager to end, never returns: a gateway SIGTERMed during the three-broker chaos run spun for
 *    ten minutes and never exited. Here a fetch after the stop fails with a retriable error
 *    instead, which ends the fetcher and the fetch manager; the runner, stopped, then ends its
 *    fetch loop. The same family of tight loops as tulios/kafkajs#1384 and #1387 (fixed upstream
 *    for a broker list that becomes empty, not for this).
 */

interface SubscriptionStateLike {
  active(): { topic: string; partitions: number[] }[];
  paused(): { topic: string; partitions: number[] }[];
}

interface ConsumerGroupLike {
  subscriptionState: SubscriptionStateLike;
  /** The consumer's own cluster: its brokers' connections are the consumer's alone. */
  cluster: { brokerPool: { brokers: Record<number, { connectionPool: { pool: ConnectionLike[] } } | undefined> } };
  maxWaitTime: number;
  sessionTimeout: number;
  fetch(nodeId: number): Promise<unknown[]>;
  resume(topicPartitions: unknown[]): void;
}

interface RunnerLike {
  consumerGroup: ConsumerGroupLike;
  running: boolean;
  fetch(nodeId: number): Promise<unknown[]>;
  stop(): Promise<void>;
}

/** A request of kafkajs's RequestQueue, as the disconnect fix sees it. */
interface QueuedRequestLike {
  correlationId: number;
  entry: { apiKey: number };
  rejected(error: Error): void;
}

interface ConnectionLike {
  host: string;
  port: number;
  socket?: { destroy(): void } | null;
  requestQueue: { inflight: Map<number, QueuedRequestLike>; pending: QueuedRequestLike[] };
  disconnect(): Promise<boolean>;
}

/** The Fetch API's key in the Kafka protocol. */
const FETCH_API_KEY = 1;

const PATCHED = Symbol.for('baton.kafkajs.consumerFetchWaits');

/** The longest a fetch waits on the broker while another partition of its consumer is paused. */
export const WHILE_PAUSED_MAX_WAIT_MS = 100;

/** Each consumer group's own fetch wait, which it has while none of its partitions is paused. */
const ownWaits = new WeakMap<object, number>();

/** Each consumer group's sleeps in progress: ending one returns its fetch with no batch. */
const sleeping = new WeakMap<object, Set<() => void>>();

/** Each consumer group's fetches in flight: ending one returns it with no batch, and abandons it. */
const fetching = new WeakMap<object, Set<() => void>>();

/** Calls and forgets every ender of `group` in `enders`. */
function endAll(enders: WeakMap<object, Set<() => void>>, group: object): void {
  const ends = enders.get(group);
  if (ends === undefined) return;
  enders.delete(group);
  for (const end of ends) end();
}

function enderSet(enders: WeakMap<object, Set<() => void>>, group: object): Set<() => void> {
  let ends = enders.get(group);
  if (ends === undefined) enders.set(group, (ends = new Set()));
  return ends;
}

/** Ends every sleep of `group` now (a resume, or its runner stopping). */
export function wakeSleeping(group: object): void {
  endAll(sleeping, group);
}

function sleepUntilWoken(group: object, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const wakers = enderSet(sleeping, group);
    const wake = () => {
      clearTimeout(timer);
      wakers.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    wakers.add(wake);
  });
}

function queuedFetches(queue: ConnectionLike['requestQueue']): QueuedRequestLike[] {
  return [...queue.inflight.values(), ...queue.pending].filter(({ entry }) => entry.apiKey === FETCH_API_KEY);
}

/** Whether `group`'s fetch from `nodeId` is on its way: queued or in flight on a connection to it. */
function fetchQueued(group: ConsumerGroupLike, nodeId: number): boolean {
  const broker = group.cluster.brokerPool.brokers[nodeId];
  return broker?.connectionPool.pool.some((connection) => queuedFetches(connection.requestQueue).length > 0) ?? false;
}

/**
 * What `fetch` returns, or no batch as soon as `group`'s runner stops with the fetch's request on
 * its way (its outcome is then dropped, and its connection's disconnect gives it up). A stop that
 * comes before the request is queued, while kafkajs awaits something before sending it (a metadata
 * refresh, a connection), is not: the request would be sent after the stop, on a connection opened
 * anew if the disconnect came first, and left there. That fetch is waited for, as 2.2.4 does.
 */
function untilStopped(group: ConsumerGroupLike, nodeId: number, fetch: Promise<unknown[]>): Promise<unknown[]> {
  return new Promise<unknown[]>((resolve, reject) => {
    const enders = enderSet(fetching, group);
    const stop = () => {
      if (fetchQueued(group, nodeId)) resolve([]);
    };
    enders.add(stop);
    fetch.then(
      (batches) => {
        enders.delete(stop);
        resolve(batches);
      },
      (error: unknown) => {
        enders.delete(stop);
        reject(error);
      },
    );
  });
}

/** How long a consumer with nothing to fetch sleeps unless woken: a third of its session, at least its fetch wait. */
export function pausedSleepMs(group: Pick<ConsumerGroupLike, 'maxWaitTime' | 'sessionTimeout'>): number {
  return Math.max(group.maxWaitTime, Math.floor(group.sessionTimeout / 3));
}

function hasActivePartition(group: ConsumerGroupLike): boolean {
  return group.subscriptionState.active().some(({ partitions }) => partitions.length > 0);
}

/**
 * `fetch` that sleeps until woken while nothing is active, fetches with a short wait while a
 * partition is paused, and returns no batch at once when its runner stops, in place of `original`.
 */
export function wakeableFetch(original: ConsumerGroupLike['fetch']): ConsumerGroupLike['fetch'] {
  return async function (this: ConsumerGroupLike, nodeId: number): Promise<unknown[]> {
    const ownWait = ownWaits.get(this) ?? this.maxWaitTime;
    ownWaits.set(this, ownWait);
    if (!hasActivePartition(this)) {
      await sleepUntilWoken(this, pausedSleepMs({ maxWaitTime: ownWait, sessionTimeout: this.sessionTimeout }));
      return [];
    }
    // paused() lists only assigned partitions that are paused.
    this.maxWaitTime =
      this.subscriptionState.paused().length > 0 ? Math.min(ownWait, WHILE_PAUSED_MAX_WAIT_MS) : ownWait;
    return untilStopped(this, nodeId, original.call(this, nodeId));
  };
}

/** `resume` that also wakes the consumer's sleep, in place of `original`. */
export function wakingResume(original: ConsumerGroupLike['resume']): ConsumerGroupLike['resume'] {
  return function (this: ConsumerGroupLike, topicPartitions: unknown[]): void {
    original.call(this, topicPartitions);
    wakeSleeping(this);
  };
}

/**
 * The runner's `stop` that also wakes its consumer's sleep and ends its fetch in flight, so the
 * fetch loop ends now, in place of `original`.
 */
export function wakingStop(original: RunnerLike['stop']): RunnerLike['stop'] {
  return function (this: RunnerLike): Promise<void> {
    const stopping = original.call(this);
    // After the call: 2.2.4's stop marks the runner stopped synchronously, so the loop ends on the empty turn.
    wakeSleeping(this.consumerGroup);
    endAll(fetching, this.consumerGroup);
    return stopping;
  };
}

/**
 * The runner's `fetch` that fails with `stopped()`'s error once the runner stopped, rather than
 * answering no batch, so the fetcher calling it ends (item 4), in place of `original`.
 */
export function fetchEndingAfterStop(original: RunnerLike['fetch'], stopped: () => Error): RunnerLike['fetch'] {
  return function (this: RunnerLike, nodeId: number): Promise<unknown[]> {
    if (!this.running) return Promise.reject(stopped());
    return original.call(this, nodeId);
  };
}

/**
 * A connection's `disconnect` that gives up its fetches, in flight or queued, rather than waiting
 * for them, in place of `original`; its other requests are still waited for.
 */
export function disconnectGivingUpFetches(
  original: ConnectionLike['disconnect'],
  connectionError: (message: string, broker: string) => Error,
): ConnectionLike['disconnect'] {
  return async function (this: ConnectionLike): Promise<boolean> {
    const queue = this.requestQueue;
    const fetches = queuedFetches(queue);
    if (fetches.length > 0) {
      const error = connectionError('Connection closed: its fetch was given up', `${this.host}:${this.port}`);
      for (const request of fetches) {
        queue.inflight.delete(request.correlationId);
        request.rejected(error);
      }
      queue.pending = queue.pending.filter(({ entry }) => entry.apiKey !== FETCH_API_KEY);
    }
    const socket = this.socket;
    const disconnected = await original.call(this);
    // The broker may still answer a fetch given up: its response is not to be read ("Response without match").
    if (fetches.length > 0) socket?.destroy();
    return disconnected;
  };
}

const requireFromHere = createRequire(import.meta.url);

/** kafkajs's ConsumerGroup and Runner classes: every consumer has one of each. */
export function kafkajsConsumerClasses(): {
  ConsumerGroup: { prototype: ConsumerGroupLike };
  Runner: { prototype: RunnerLike };
  Connection: { prototype: ConnectionLike };
} {
  return {
    ConsumerGroup: requireFromHere('kafkajs/src/consumer/consumerGroup.js') as { prototype: ConsumerGroupLike },
    Runner: requireFromHere('kafkajs/src/consumer/runner.js') as { prototype: RunnerLike },
    Connection: requireFromHere('kafkajs/src/network/connection.js') as { prototype: ConnectionLike },
  };
}

/** kafkajs's own error for a connection closed under a request, which its consumer retries. */
function kafkajsConnectionError(message: string, broker: string): Error {
  const { KafkaJSConnectionError } = requireFromHere('kafkajs/src/errors.js') as {
    KafkaJSConnectionError: new (message: string, properties: { broker: string }) => Error;
  };
  return new KafkaJSConnectionError(message, { broker });
}

/** kafkajs's own retriable error, for a fetch after its runner stopped: the runner's retry then sees it stopped. */
function consumerStoppedError(): Error {
  const { KafkaJSError } = requireFromHere('kafkajs/src/errors.js') as {
    KafkaJSError: new (message: string) => Error;
  };
  return new KafkaJSError('the consumer stopped: its fetcher ends');
}

/** Applies the fixes once per process. */
export function patchConsumerFetchWaits(): PrototypePatch {
  const { ConsumerGroup, Runner, Connection } = kafkajsConsumerClasses();
  return replacePrototypeMethods(PATCHED, [
    {
      name: 'ConsumerGroup.fetch',
      prototype: ConsumerGroup.prototype,
      method: 'fetch',
      replace: (original) => wakeableFetch(original as ConsumerGroupLike['fetch']) as never,
    },
    {
      name: 'ConsumerGroup.resume',
      prototype: ConsumerGroup.prototype,
      method: 'resume',
      replace: (original) => wakingResume(original as ConsumerGroupLike['resume']) as never,
    },
    {
      name: 'Runner.fetch',
      prototype: Runner.prototype,
      method: 'fetch',
      replace: (original) => fetchEndingAfterStop(original as RunnerLike['fetch'], consumerStoppedError) as never,
    },
    {
      name: 'Runner.stop',
      prototype: Runner.prototype,
      method: 'stop',
      replace: (original) => wakingStop(original as RunnerLike['stop']) as never,
    },
    {
      name: 'Connection.disconnect',
      prototype: Connection.prototype,
      method: 'disconnect',
      replace: (original) =>
        disconnectGivingUpFetches(original as ConnectionLike['disconnect'], kafkajsConnectionError) as never,
    },
  ]);
}
