import { createRequire } from 'node:module';
import { replacePrototypeMethods, type PrototypePatch } from './module-replacement.js';

/**
 * kafkajs 2.2.4's ConsumerGroup.fetch (src/consumer/consumerGroup.js), when none of the consumer's
 * partitions is active (all paused, or none assigned), sleeps `maxWaitTime` and returns no batch;
 * the fetch loop then calls it again. Nothing cuts that sleep short: `resume()` waits for it to end
 * before its partition is fetched, and `disconnect()` waits it out too. So a consumer that pauses
 * everything between short bursts of reading (Baton's processed-id readers between partition
 * take-ups, an agent's registry reader between refreshes) had to choose: a short wait, and a
 * wake-up several times a second for nothing (four a second per processed-id reader: about 60 % of
 * an idle agent's timer wake-ups, measured), or a long one, and every take-up that much slower.
 *
 * With this fix the sleep ends at once when the consumer resumes a partition or its runner stops,
 * and so it can be long: a third of the session timeout, the cadence Kafka advises for heartbeats
 * (the runner heartbeats after each empty fetch, when its interval is due, so the session stays
 * alive). While nothing is active the sleep also skips the steps 2.2.4 takes before sleeping
 * (metadata refresh when due, the stale-assignment check, pending seeks): they are about the
 * partitions to fetch, and they run at the first fetch after a resume, before anything is fetched.
 * Not an upstream fix (kafkajs has had no release since 2.2.4): Baton's.
 */

interface SubscriptionStateLike {
  active(): { topic: string; partitions: number[] }[];
}

interface ConsumerGroupLike {
  subscriptionState: SubscriptionStateLike;
  maxWaitTime: number;
  sessionTimeout: number;
  fetch(nodeId: number): Promise<unknown[]>;
  resume(topicPartitions: unknown[]): void;
}

interface RunnerLike {
  consumerGroup: ConsumerGroupLike;
  stop(): Promise<void>;
}

const PATCHED = Symbol.for('baton.kafkajs.pausedConsumerSleep');

/**
 * After a resume, for this long, a fetch waits at most AFTER_RESUME_MAX_WAIT_MS on the broker. A
 * fetch in flight holds the connection until it returns (the broker answers one request of a
 * connection at a time), so a partition resumed meanwhile, in a partition take-up that resumes them
 * one after another, would wait a whole fetch wait for the next fetch; with short fetches for a
 * moment, it is fetched a few milliseconds later.
 */
export const AFTER_RESUME_WINDOW_MS = 1_000;
export const AFTER_RESUME_MAX_WAIT_MS = 20;

/** Each consumer group's last resume, and its own fetch wait (what it has outside that window). */
const resumed = new WeakMap<object, { at: number; maxWaitTime: number }>();

/** Each consumer group's sleeps in progress: ending one returns its fetch with no batch. */
const sleeping = new WeakMap<object, Set<() => void>>();

/** Ends every sleep of `group` now (a resume, or its runner stopping). */
export function wakeSleeping(group: object): void {
  const wakers = sleeping.get(group);
  if (wakers === undefined) return;
  sleeping.delete(group);
  for (const wake of wakers) wake();
}

function sleepUntilWoken(group: object, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    let wakers = sleeping.get(group);
    if (wakers === undefined) sleeping.set(group, (wakers = new Set()));
    const wake = () => {
      clearTimeout(timer);
      wakers.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    wakers.add(wake);
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
 * `fetch` that sleeps until woken while nothing is active, and fetches with a short wait for a
 * moment after a resume, in place of `original`.
 */
export function wakeableFetch(original: ConsumerGroupLike['fetch']): ConsumerGroupLike['fetch'] {
  return async function (this: ConsumerGroupLike, nodeId: number): Promise<unknown[]> {
    const resume = resumed.get(this);
    const ownWait = resume?.maxWaitTime ?? this.maxWaitTime;
    if (resume !== undefined) {
      const recent = Date.now() - resume.at < AFTER_RESUME_WINDOW_MS;
      this.maxWaitTime = recent ? Math.min(ownWait, AFTER_RESUME_MAX_WAIT_MS) : ownWait;
      if (!recent) resumed.delete(this);
    }
    if (hasActivePartition(this)) return original.call(this, nodeId);
    await sleepUntilWoken(this, pausedSleepMs({ maxWaitTime: ownWait, sessionTimeout: this.sessionTimeout }));
    return [];
  };
}

/** `resume` that also wakes the consumer's sleep and opens a window of short fetches, in place of `original`. */
export function wakingResume(original: ConsumerGroupLike['resume']): ConsumerGroupLike['resume'] {
  return function (this: ConsumerGroupLike, topicPartitions: unknown[]): void {
    original.call(this, topicPartitions);
    resumed.set(this, { at: Date.now(), maxWaitTime: resumed.get(this)?.maxWaitTime ?? this.maxWaitTime });
    wakeSleeping(this);
  };
}

/** The runner's `stop` that also wakes its consumer's sleep, so the fetch loop ends now, in place of `original`. */
export function wakingStop(original: RunnerLike['stop']): RunnerLike['stop'] {
  return function (this: RunnerLike): Promise<void> {
    const stopping = original.call(this);
    // After the call: 2.2.4's stop marks the runner stopped synchronously, so the woken fetch's loop ends.
    wakeSleeping(this.consumerGroup);
    return stopping;
  };
}

const requireFromHere = createRequire(import.meta.url);

/** kafkajs's ConsumerGroup and Runner classes: every consumer has one of each. */
export function kafkajsConsumerClasses(): {
  ConsumerGroup: { prototype: ConsumerGroupLike };
  Runner: { prototype: RunnerLike };
} {
  return {
    ConsumerGroup: requireFromHere('kafkajs/src/consumer/consumerGroup.js') as { prototype: ConsumerGroupLike },
    Runner: requireFromHere('kafkajs/src/consumer/runner.js') as { prototype: RunnerLike },
  };
}

/** Applies the fix once per process. */
export function patchPausedConsumerSleep(): PrototypePatch {
  const { ConsumerGroup, Runner } = kafkajsConsumerClasses();
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
      name: 'Runner.stop',
      prototype: Runner.prototype,
      method: 'stop',
      replace: (original) => wakingStop(original as RunnerLike['stop']) as never,
    },
  ]);
}
