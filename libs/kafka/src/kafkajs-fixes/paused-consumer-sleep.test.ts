import { describe, expect, it, vi } from 'vitest';
import { createKafka } from '../create-kafka.js';
import {
  AFTER_RESUME_MAX_WAIT_MS,
  AFTER_RESUME_WINDOW_MS,
  kafkajsConsumerClasses,
  patchPausedConsumerSleep,
  pausedSleepMs,
  wakeableFetch,
  wakingResume,
  wakingStop,
} from './paused-consumer-sleep.js';

/** A consumer group as the fix sees it: `active` partitions, a fetch that answers `batch` and counts its calls. */
function group(active: number[]) {
  const state = { active, fetched: 0, waits: [] as number[] };
  const self = {
    maxWaitTime: 50,
    // A third of it, 60 s, is far beyond every wait of these tests: a sleep that ends did so because it was woken.
    sessionTimeout: 180_000,
    subscriptionState: { active: () => [{ topic: 't', partitions: state.active }] },
    fetch: wakeableFetch(async function (this: { maxWaitTime: number }) {
      state.fetched += 1;
      state.waits.push(this.maxWaitTime);
      return ['batch'];
    }),
    resume: wakingResume((partitions: unknown[]) => {
      state.active = partitions as number[];
    }),
  };
  return { self, state };
}

describe("kafkajs's fetch with every partition paused", () => {
  it('fetches as kafkajs does while a partition is active', async () => {
    const { self, state } = group([0]);
    expect(await self.fetch(1)).toEqual(['batch']);
    expect(state.fetched).toBe(1);
  });

  it('sleeps with nothing active until a partition is resumed, then returns no batch', async () => {
    const { self, state } = group([]);
    let returned: unknown;
    const fetching = self.fetch(1).then((batches) => (returned = batches));
    await new Promise((resolve) => setImmediate(resolve));
    expect(returned).toBeUndefined();
    self.resume([2]);
    expect(await fetching).toEqual([]);
    expect(state.fetched).toBe(0);
    // The next turn of the loop fetches the resumed partition.
    expect(await self.fetch(1)).toEqual(['batch']);
  });

  it("ends the sleep when the consumer's runner stops, after the runner marks itself stopped", async () => {
    const { self } = group([]);
    const fetching = self.fetch(1);
    const runner = {
      consumerGroup: self,
      running: true,
      stop: wakingStop(async function (this: { running: boolean }) {
        this.running = false;
        await fetching;
      }),
    };
    await runner.stop();
    expect(runner.running).toBe(false);
    expect(await fetching).toEqual([]);
  });

  it('fetches with a short wait for a moment after a resume, then with its own again', async () => {
    const { self, state } = group([0]);
    self.maxWaitTime = 1_000;
    await self.fetch(1);
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now);
    self.resume([0, 1]);
    await self.fetch(1);
    vi.spyOn(Date, 'now').mockReturnValue(now + AFTER_RESUME_WINDOW_MS - 1);
    await self.fetch(1);
    vi.spyOn(Date, 'now').mockReturnValue(now + AFTER_RESUME_WINDOW_MS);
    await self.fetch(1);
    await self.fetch(1);
    expect(state.waits).toEqual([1_000, AFTER_RESUME_MAX_WAIT_MS, AFTER_RESUME_MAX_WAIT_MS, 1_000, 1_000]);
    vi.restoreAllMocks();
  });

  it('sleeps a third of the session timeout, and never less than the fetch wait', () => {
    expect(pausedSleepMs({ maxWaitTime: 1_000, sessionTimeout: 30_000 })).toBe(10_000);
    expect(pausedSleepMs({ maxWaitTime: 5_000, sessionTimeout: 6_000 })).toBe(5_000);
  });

  it("is every kafkajs consumer's once @baton/kafka is loaded", () => {
    createKafka({ brokers: ['localhost:9092'], clientId: 'test' });
    expect(patchPausedConsumerSleep()).toEqual({ status: 'already-applied', version: '2.2.4' });
    const { ConsumerGroup } = kafkajsConsumerClasses();
    expect(
      (ConsumerGroup.prototype as unknown as Record<symbol, unknown>)[Symbol.for('baton.kafkajs.pausedConsumerSleep')],
    ).toBe(true);
  });
});
