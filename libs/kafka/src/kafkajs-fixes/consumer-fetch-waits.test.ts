import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createKafka } from '../create-kafka.js';
import {
  WHILE_PAUSED_MAX_WAIT_MS,
  disconnectGivingUpFetches,
  fetchEndingAfterStop,
  kafkajsConsumerClasses,
  patchConsumerFetchWaits,
  pausedSleepMs,
  wakeableFetch,
  wakingResume,
  wakingStop,
} from './consumer-fetch-waits.js';

/**
 * A consumer group as the fix sees it: `active` and `paused` partitions, a fetch that answers what
 * `answer` gives (by default a batch at once) and records the wait it was asked for.
 */
function group(active: number[], paused: number[] = []) {
  const state = {
    active,
    paused,
    fetched: 0,
    waits: [] as number[],
    answer: (): Promise<unknown[]> => Promise.resolve(['batch']),
  };
  // The connection the broker of node 1 fetches on, with the fetch request while one is on its way.
  const fetchConnection = {
    requestQueue: { inflight: new Map<number, unknown>(), pending: [] as unknown[] },
  };
  const self = {
    cluster: { brokerPool: { brokers: { 1: { connectionPool: { pool: [fetchConnection] } } } } },
    fetchConnection,
    maxWaitTime: 5_000,
    // A third of it, 60 s, is far beyond every wait of these tests: a sleep that ends did so because it was woken.
    sessionTimeout: 180_000,
    subscriptionState: {
      active: () => [{ topic: 't', partitions: state.active }],
      paused: () => (state.paused.length > 0 ? [{ topic: 't', partitions: state.paused }] : []),
    },
    fetch: wakeableFetch(function (this: { maxWaitTime: number }) {
      state.fetched += 1;
      state.waits.push(this.maxWaitTime);
      return state.answer();
    }),
    resume: wakingResume((partitions: unknown[]) => {
      state.active = [...state.active, ...(partitions as number[])];
      state.paused = state.paused.filter((partition) => !(partitions as number[]).includes(partition));
    }),
  };
  return { self, state };
}

/** A runner of `consumerGroup` whose stop marks it stopped and then waits for `fetching`, as 2.2.4's does. */
function runnerOf(consumerGroup: ReturnType<typeof group>['self'], fetching: Promise<unknown>) {
  return {
    consumerGroup,
    running: true,
    stop: wakingStop(async function (this: { running: boolean }) {
      this.running = false;
      await fetching;
    }),
  };
}

/** Whether `promise` has settled once everything queued before this call has run. */
async function settledNow(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

describe("kafkajs's fetch with every partition paused", () => {
  it('fetches as kafkajs does while every assigned partition is active', async () => {
    const { self, state } = group([0, 1]);
    expect(await self.fetch(1)).toEqual(['batch']);
    expect(state.fetched).toBe(1);
    expect(state.waits).toEqual([5_000]);
  });

  it('sleeps with nothing active until a partition is resumed, then returns no batch', async () => {
    const { self, state } = group([], [0, 1]);
    const fetching = self.fetch(1);
    expect(await settledNow(fetching)).toBe(false);
    self.resume([1]);
    expect(await fetching).toEqual([]);
    expect(state.fetched).toBe(0);
    // The next turn of the loop fetches the resumed partition, with a short wait while 0 is paused.
    expect(await self.fetch(1)).toEqual(['batch']);
    expect(state.waits).toEqual([WHILE_PAUSED_MAX_WAIT_MS]);
  });

  it("ends the sleep when the consumer's runner stops, after the runner marks itself stopped", async () => {
    const { self } = group([]);
    const fetching = self.fetch(1);
    const runner = runnerOf(self, fetching);
    await runner.stop();
    expect(runner.running).toBe(false);
    expect(await fetching).toEqual([]);
  });

  it('sleeps a third of the session timeout, and never less than the fetch wait', () => {
    expect(pausedSleepMs({ maxWaitTime: 1_000, sessionTimeout: 30_000 })).toBe(10_000);
    expect(pausedSleepMs({ maxWaitTime: 5_000, sessionTimeout: 6_000 })).toBe(5_000);
  });
});

describe("kafkajs's fetch with some partitions paused", () => {
  it('waits briefly while one is paused, and its own wait again once none is', async () => {
    const { self, state } = group([0], [1]);
    await self.fetch(1);
    self.resume([1]);
    await self.fetch(1);
    expect(state.waits).toEqual([WHILE_PAUSED_MAX_WAIT_MS, 5_000]);
  });

  it('never waits longer than its own wait', async () => {
    const { self, state } = group([0], [1]);
    self.maxWaitTime = 20;
    await self.fetch(1);
    expect(state.waits).toEqual([20]);
  });
});

describe("kafkajs's fetch in flight at a stop", () => {
  /** `group`'s fetch answers only when `settle` is called, its request in flight on the broker's connection until then. */
  function inFlight({ self, state }: ReturnType<typeof group>) {
    const settle: { answer(batches: unknown[]): void; fail(error: Error): void } = {
      answer: () => undefined,
      fail: () => undefined,
    };
    state.answer = () => {
      const { inflight } = self.fetchConnection.requestQueue;
      inflight.set(7, { correlationId: 7, entry: { apiKey: 1 } });
      return new Promise((resolve, reject) => {
        settle.answer = (batches) => {
          inflight.delete(7);
          resolve(batches);
        };
        settle.fail = reject;
      });
    };
    return settle;
  }

  it("returns no batch as soon as the runner stops, and the abandoned fetch's failure goes nowhere", async () => {
    const consumer = group([0]);
    const settle = inFlight(consumer);
    const fetching = consumer.self.fetch(1);
    expect(await settledNow(fetching)).toBe(false);
    await runnerOf(consumer.self, fetching).stop();
    expect(await fetching).toEqual([]);
    // Rejected later, when its connection gives it up: handled, so no unhandled rejection.
    settle.fail(new Error('Connection closed'));
    await new Promise((resolve) => setImmediate(resolve));
  });

  it('waits for a fetch whose request is not on its way yet at the stop', async () => {
    const { self, state } = group([0]);
    let answer: (batches: unknown[]) => void = () => undefined;
    state.answer = () => new Promise((resolve) => (answer = resolve));
    const fetching = self.fetch(1);
    const stopping = runnerOf(self, fetching).stop();
    expect(await settledNow(fetching)).toBe(false);
    answer(['batch']);
    await stopping;
    expect(await fetching).toEqual(['batch']);
  });

  it('passes a fetch that settles before any stop through, batches or error', async () => {
    const { self, state } = group([0]);
    expect(await self.fetch(1)).toEqual(['batch']);
    state.answer = () => Promise.reject(new Error('broker gone'));
    await expect(self.fetch(1)).rejects.toThrow('broker gone');
    // A later stop has nothing in flight to end.
    await runnerOf(self, Promise.resolve()).stop();
  });

  it('is not ended by a resume', async () => {
    const consumer = group([0], [1]);
    const settle = inFlight(consumer);
    const fetching = consumer.self.fetch(1);
    consumer.self.resume([1]);
    expect(await settledNow(fetching)).toBe(false);
    settle.answer(['batch']);
    expect(await fetching).toEqual(['batch']);
  });
});

/** A connection as the disconnect fix sees it, holding `requests` (api keys) in flight and one pending. */
function connection(inflight: number[], pending: number[]) {
  const outcomes = new Map<number, string>();
  const request = (apiKey: number, correlationId: number) => ({
    correlationId,
    entry: { apiKey },
    rejected: (error: Error) => outcomes.set(correlationId, `rejected: ${error.message}`),
  });
  const queued = inflight.map((apiKey, index) => request(apiKey, index));
  const events: string[] = [];
  const self = {
    host: 'localhost',
    port: 9092,
    socket: { destroy: () => events.push('destroyed') },
    requestQueue: {
      inflight: new Map(queued.map((entry) => [entry.correlationId, entry])),
      pending: pending.map((apiKey, index) => request(apiKey, 100 + index)),
    },
    disconnect: disconnectGivingUpFetches(
      async function (this: { requestQueue: { inflight: Map<number, unknown>; pending: unknown[] } }) {
        events.push(`disconnect waits for ${this.requestQueue.inflight.size + this.requestQueue.pending.length}`);
        return true;
      },
      (message, broker) => new Error(`${message} (${broker})`),
    ),
  };
  return { self, outcomes, events };
}

describe("kafkajs's connection disconnect", () => {
  it('gives up its fetches in flight and queued, waits for its other requests, and drops the socket', async () => {
    // 1 is Fetch, 12 Heartbeat.
    const { self, outcomes, events } = connection([1, 12], [1]);
    expect(await self.disconnect()).toBe(true);
    expect(Object.fromEntries(outcomes)).toEqual({
      0: 'rejected: Connection closed: its fetch was given up (localhost:9092)',
      100: 'rejected: Connection closed: its fetch was given up (localhost:9092)',
    });
    expect([...self.requestQueue.inflight.keys()]).toEqual([1]);
    expect(self.requestQueue.pending).toEqual([]);
    expect(events).toEqual(['disconnect waits for 1', 'destroyed']);
  });

  it('disconnects as kafkajs does when no fetch is queued', async () => {
    const { self, outcomes, events } = connection([12], []);
    await self.disconnect();
    expect(outcomes.size).toBe(0);
    expect(events).toEqual(['disconnect waits for 1']);
  });
});

describe("kafkajs's fetch after its runner stopped", () => {
  it('fails rather than answering no batch, and passes a fetch of a running runner through', async () => {
    const original = (nodeId: number) => Promise.resolve([`batch of ${nodeId}`]);
    const fetch = fetchEndingAfterStop(original, () => new Error('stopped'));
    const runner = { running: true, fetch };
    await expect(runner.fetch(1)).resolves.toEqual(['batch of 1']);
    runner.running = false;
    await expect(runner.fetch(1)).rejects.toThrow('stopped');
  });

  /**
   * kafkajs's own fetch manager and the patched Runner.fetch: the manager finds the brokers
   * changed, and while it stops its fetchers to make new ones the runner stops. Before the fix the
   * new fetchers looped on no batch for good, in microtasks alone (so a timer could not end it:
   * the fetch below counts the turns and breaks the loop itself).
   */
  it("ends the fetchers kafkajs's fetch manager makes anew after the stop, and the manager with them", async () => {
    createKafka({ brokers: ['localhost:9092'], clientId: 'test' });
    const requireHere = createRequire(import.meta.url);
    const createFetchManager = requireHere('kafkajs/src/consumer/fetchManager.js') as (options: unknown) => {
      start(): Promise<void>;
    };
    const { Runner } = kafkajsConsumerClasses();
    const quiet = { debug() {}, info() {}, warn() {}, error() {} };
    const logger = { ...quiet, namespace: () => logger };
    const runner = Object.assign(Object.create(Runner.prototype) as Record<string, unknown>, {
      running: true,
      logger,
      consumerGroup: { groupId: 'g', memberId: 'm' },
    });
    let nodeIds = [1, 2];
    let release: (() => void) | undefined;
    let afterStop = 0;
    const manager = createFetchManager({
      logger,
      getNodeIds: () => nodeIds,
      handler: async () => undefined,
      fetch: (nodeId: number): Promise<unknown[]> => {
        if (runner.running === false) {
          afterStop += 1;
          if (afterStop > 100) return Promise.reject(new Error('spun'));
          return (Runner.prototype.fetch as (nodeId: number) => Promise<unknown[]>).call(runner, nodeId);
        }
        // Node 1's first fetch sees the brokers change, which its next turn finds; every other is long.
        if (nodeId === 1 && nodeIds.length === 2) {
          nodeIds = [1, 2, 3];
          return Promise.resolve([]);
        }
        return new Promise((resolve) => {
          const previous = release;
          release = () => {
            previous?.();
            resolve([]);
          };
        });
      },
    });
    const started = manager.start();
    // The manager now waits for node 2's fetcher to stop: the runner stops meanwhile.
    await new Promise((resolve) => setImmediate(resolve));
    runner.running = false;
    release?.();
    await expect(started).rejects.toThrow('the consumer stopped: its fetcher ends');
    expect(afterStop).toBeLessThanOrEqual(3);
  });
});

describe('the fixes', () => {
  it("are every kafkajs consumer's once @baton/kafka is loaded", () => {
    createKafka({ brokers: ['localhost:9092'], clientId: 'test' });
    expect(patchConsumerFetchWaits()).toEqual({ status: 'already-applied', version: '2.2.4' });
    const { ConsumerGroup } = kafkajsConsumerClasses();
    expect(
      (ConsumerGroup.prototype as unknown as Record<symbol, unknown>)[Symbol.for('baton.kafkajs.consumerFetchWaits')],
    ).toBe(true);
  });
});
