import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createKafka, RecordProducer } from '@baton/kafka';
import {
  floodRouterDeadLetters,
  GATEWAY_TOKENS,
  PROBE_AGENT,
  startGatewayRig,
  uniqueName,
  waitFor,
  type GatewayRig,
  expectCleanExits,
} from './helpers/index.js';

describe('dead letters across every DLQ topic: GET /v1/dead-letters and /v1/dead-letters/stats', () => {
  let gateway: GatewayRig;
  const viewer = { token: GATEWAY_TOKENS.viewer };

  beforeAll(async () => {
    gateway = await startGatewayRig('dlq-across');
  });

  afterAll(async () => {
    const codes = await gateway?.stop();
    expectCleanExits(codes);
  });

  it("lists the router's and the probe agent's dead letters in one, newest first, and totals them by code and topic", async () => {
    const { topics } = gateway.rig;
    // Two records the router cannot read, then a handoff the probe agent fails on every attempt.
    const producer = new RecordProducer(createKafka({ brokers: inject('kafkaBrokers'), clientId: uniqueName('raw') }));
    await producer.send(
      ['a', 'b'].map((name) => ({
        topic: topics.inbound,
        key: uniqueName(`garbage-${name}`),
        value: Buffer.from('not avro'),
      })),
    );
    await producer.disconnect();
    const failing = uniqueName('failing');
    const published = await gateway.api('POST', '/v1/handoffs', {
      token: GATEWAY_TOKENS.publisher,
      body: gateway.probeHandoff(failing, { seq: 1, always_fail: true }, 0),
    });
    expect(published.status).toBe(202);

    const all = await waitFor(
      async () => {
        const answer = await gateway.api('GET', '/v1/dead-letters?limit=2', viewer);
        return answer.body?.total === 3 ? answer : undefined;
      },
      { description: 'three dead letters in the list', timeoutMs: 30_000 },
    );
    expect(all.status).toBe(200);
    const routerDlq = `${topics.inbound}.dlq`;
    const probeDlq = `${topics.agentInbox(PROBE_AGENT)}.dlq`;
    const rest = await gateway.api('GET', `/v1/dead-letters?limit=2&cursor=${all.body.next_cursor}`, viewer);
    const listed = [...all.body.messages, ...rest.body.messages];
    expect(rest.body.next_cursor).toBeUndefined();
    expect(new Set(listed.map((letter: { topic: string; id: string }) => `${letter.topic}/${letter.id}`)).size).toBe(3);
    expect(listed.map((letter: { error_code: string }) => letter.error_code).sort()).toEqual([
      'RETRIES_EXHAUSTED',
      'WIRE_FORMAT_INVALID',
      'WIRE_FORMAT_INVALID',
    ]);

    const ofProbe = await gateway.api('GET', `/v1/dead-letters?agent=${PROBE_AGENT}`, viewer);
    expect(
      ofProbe.body.messages.map((letter: { task_id: string; topic: string }) => [letter.topic, letter.task_id]),
    ).toEqual([[probeDlq, failing]]);
    const ofRouter = await gateway.api('GET', '/v1/dead-letters?agent=router&error_code=WIRE_FORMAT_INVALID', viewer);
    expect(ofRouter.body.total).toBe(2);

    const stats = await gateway.api('GET', '/v1/dead-letters/stats', viewer);
    const perTopic = await gateway.api('GET', '/v1/dlq', viewer);
    expect(stats.body).toEqual({
      total: 3,
      by_error_code: [
        { error_code: 'WIRE_FORMAT_INVALID', count: 2 },
        { error_code: 'RETRIES_EXHAUSTED', count: 1 },
      ],
      by_topic: [
        { topic: routerDlq, source_topic: topics.inbound, count: 2 },
        { topic: probeDlq, source_topic: topics.agentInbox(PROBE_AGENT), count: 1 },
      ],
      empty_topics: perTopic.body.topics.filter((topic: { count: number }) => topic.count === 0).length,
    });

    // The overview: both DLQ topics need attention, the agents are up, and the last minutes' outcomes count them.
    const overview = await waitFor(
      async () => {
        const answer = await gateway.api('GET', '/v1/overview', viewer);
        const outcomes = answer.body.outcomes.per_minute.flatMap((minute: { outcomes: Record<string, number> }) =>
          Object.entries(minute.outcomes),
        );
        return outcomes.some(([outcome]: [string]) => outcome === 'DEAD_LETTERED') ? answer : undefined;
      },
      { description: "the probe's DEAD_LETTERED outcome in the overview's rates" },
    );
    expect(overview.body.attention).toEqual([
      { kind: 'dead_letters', subject: routerDlq, detail: `2 dead letters from ${topics.inbound}` },
      { kind: 'dead_letters', subject: probeDlq, detail: `1 dead letter from ${topics.agentInbox(PROBE_AGENT)}` },
    ]);
    expect(overview.body.dead_letters).toEqual(stats.body);
    expect(overview.body.agents.map((agent: { agent_id: string; up: boolean }) => [agent.agent_id, agent.up])).toEqual([
      [PROBE_AGENT, true],
      ['router', true],
    ]);
    expect(overview.body.outcomes.window_minutes).toBe(15);
    expect(overview.body.outcomes.per_minute).toHaveLength(15);

    const refused = await gateway.api('GET', '/v1/dead-letters?from=yesterday', viewer);
    expect([refused.status, refused.body.error.code]).toEqual([400, 'REQUEST_INVALID']);
  });

  it('answers the overview and the first page quickly with 10,000 dead letters present', async () => {
    const flood = 10_000;
    await floodRouterDeadLetters(gateway, flood);

    /** The median of 7 timed calls, after one untimed. */
    const timed = async (path: string): Promise<{ ms: number; body: any }> => {
      let body: any;
      const times: number[] = [];
      for (let round = 0; round < 8; round += 1) {
        const startedAt = performance.now();
        const answer = await gateway.api('GET', path, viewer);
        if (round > 0) times.push(performance.now() - startedAt);
        expect(answer.status).toBe(200);
        body = answer.body;
      }
      times.sort((a, b) => a - b);
      return { ms: times[3] as number, body };
    };
    const overview = await timed('/v1/overview');
    const firstPage = await timed('/v1/dead-letters?limit=50');
    const filtered = await timed('/v1/dead-letters?agent=router&error_code=WIRE_FORMAT_INVALID&limit=50');
    const stats = await timed('/v1/dead-letters/stats');
    expect(overview.body.dead_letters.total).toBe(stats.body.total);
    // The 3 of the test before, the flood's model and the flood.
    expect(stats.body.total).toBe(flood + 4);
    expect(firstPage.body.messages).toHaveLength(50);
    expect(filtered.body.total).toBe(
      stats.body.by_error_code.find((code: { error_code: string }) => code.error_code === 'WIRE_FORMAT_INVALID').count,
    );
    console.log(
      `[console] with ${stats.body.total} dead letters: GET /v1/overview ${overview.ms.toFixed(1)} ms, ` +
        `/v1/dead-letters first page ${firstPage.ms.toFixed(1)} ms, filtered ${filtered.ms.toFixed(1)} ms, ` +
        `stats ${stats.ms.toFixed(1)} ms (medians of 7, this machine, gateway and broker local)`,
    );
  }, 120_000);
});
