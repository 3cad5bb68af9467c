import { describe, expect, it } from 'vitest';
import { createKafka } from '../create-kafka.js';
import { cachedFindGroupCoordinator, kafkajsCluster, patchCoordinatorCache } from './coordinator-cache.js';

class Broker {
  constructor(
    readonly nodeId: number,
    private readonly failWith?: Error,
  ) {}

  async endTxn(): Promise<string> {
    if (this.failWith) throw this.failWith;
    return `ended by ${this.nodeId}`;
  }
}

/** A cluster whose lookups answer the brokers of `answers` in turn, counting them. */
function cluster(answers: Broker[]) {
  const lookups: string[] = [];
  const find = cachedFindGroupCoordinator(async ({ groupId, coordinatorType }) => {
    lookups.push(`${coordinatorType ?? 0}/${groupId}`);
    const broker = answers.shift();
    if (broker === undefined) throw new Error('no more answers');
    return broker;
  });
  const self = {};
  return {
    lookups,
    find: async (groupId: string, coordinatorType?: number) =>
      (await find.call(self, { groupId, coordinatorType })) as Broker,
  };
}

describe("kafkajs's coordinator lookups, cached", () => {
  it('asks once per coordinator type and id, and hands out the same broker', async () => {
    const { lookups, find } = cluster([new Broker(1), new Broker(2)]);
    const first = await find('tx-1', 1);
    expect(await find('tx-1', 1)).toBe(first);
    expect(await first.endTxn()).toBe('ended by 1');
    expect((await find('group-1')).nodeId).toBe(2);
    expect(await find('group-1')).toBe(await find('group-1', 0));
    expect(lookups).toEqual(['1/tx-1', '0/group-1']);
  });

  it('forgets a coordinator when a request to it fails, so the retry asks again', async () => {
    const notCoordinator = Object.assign(new Error('not the coordinator'), { type: 'NOT_COORDINATOR' });
    const { lookups, find } = cluster([new Broker(1, notCoordinator), new Broker(3)]);
    await expect((await find('tx-1', 1)).endTxn()).rejects.toBe(notCoordinator);
    expect(await (await find('tx-1', 1)).endTxn()).toBe('ended by 3');
    expect(lookups).toEqual(['1/tx-1', '1/tx-1']);
  });

  it("is each kafkajs cluster's lookup once @baton/kafka is loaded", () => {
    createKafka({ brokers: ['localhost:9092'], clientId: 'test' });
    expect(patchCoordinatorCache()).toEqual({ status: 'already-applied', version: '2.2.4' });
    expect(
      (kafkajsCluster().prototype as unknown as Record<symbol, unknown>)[Symbol.for('baton.kafkajs.coordinatorCache')],
    ).toBe(true);
  });
});
