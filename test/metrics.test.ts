import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createKafka, RecordProducer, type TopicNames } from '@baton/kafka';
import { buildHandoff, type HandoffMessage } from '@baton/protocol';
import { startBatonRig, uniqueName, waitFor, type BatonRig, type ServiceProcess } from './helpers/index.js';

const require = createRequire(import.meta.url);
const brokers = inject('kafkaBrokers');
const PARTITIONS = 3;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (label values here have no escaped quotes). */
function parseExposition(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (match === null) throw new Error(`not a sample: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map(([, k, v]) => [k, v]));
      return { name: match[1] as string, labels: labels as Record<string, string>, value: Number(match[3]) };
    });
}

async function scrape(service: ServiceProcess): Promise<Sample[]> {
  const response = await fetch(`${service.address}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return parseExposition(await response.text());
}

/** The value of the one sample of `name` whose labels include `labels`, or undefined. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )?.value;
}

describe('/metrics of the router and an agent, after a small flow', () => {
  let rig: BatonRig;
  let topics: TopicNames;
  let router: ServiceProcess;
  let sales: ServiceProcess;
  const escalationId = 'e7a1c0de-0b0a-4908-8706-050403020100';

  beforeAll(async () => {
    rig = await startBatonRig({ name: 'metrics', agents: ['sales-agent'], partitions: PARTITIONS });
    topics = rig.topics;
    router = rig.services.router as ServiceProcess;
    sales = rig.services['sales-agent'] as ServiceProcess;

    // Three purchases, routed by the `sales` rule and processed by sales.
    for (let i = 0; i < 3; i += 1) {
      await rig.publisher.publish(
        topics.inbound,
        buildHandoff({
          metadata: { sender_id: 'triage_agent', recipient_id: 'any_salesperson', task_id: uniqueName('task') },
          payload: {
            handoff_type: 'TASK_TRANSFER',
            data: { issue_category: 'SALES', task_summary: 'I want to buy the RouterX-Pro mesh kit' },
          },
        }),
      );
    }
    // A notification with no issue_category, for nobody the table knows: the default route.
    await rig.publisher.publish(
      topics.inbound,
      buildHandoff({
        metadata: { sender_id: 'monitor', recipient_id: 'nobody_agent', task_id: uniqueName('task') },
        payload: { handoff_type: 'NOTIFICATION', data: { event_type: 'PING', message: 'hello' } },
      }),
    );
    // The reference escalation sent to sales, which has no handler for it: dead-lettered by sales.
    const escalation = structuredClone(
      require('@baton/schemas/fixtures/seed-000-escalation-full.json'),
    ) as HandoffMessage;
    escalation.metadata.recipient_id = 'sales_agent';
    escalation.metadata.message_id = escalationId;
    escalation.metadata.expiration_time = '2999-01-01T00:00:00.000Z';
    await rig.publisher.publish(topics.inbound, escalation as never);
    // Bytes that are no handoff: dead-lettered by the router.
    const producer = new RecordProducer(createKafka({ brokers, clientId: uniqueName('raw') }));
    await producer.send([{ topic: topics.inbound, key: 'garbage', value: Buffer.from('not avro') }]);
    await producer.disconnect();
  });

  afterAll(async () => {
    expect(await rig?.stop()).toEqual({ router: 0, 'sales-agent': 0 });
  });

  it('the router counts what it consumed and routed, by handoff_type and issue_category', async () => {
    const consumed = (labels: Record<string, string>) => ({ topic: topics.inbound, ...labels });
    const samples = await waitFor(
      async () => {
        const all = await scrape(router);
        const done =
          valueOf(
            all,
            'baton_handoffs_consumed_total',
            consumed({ handoff_type: 'TASK_TRANSFER', issue_category: 'SALES', result: 'processed' }),
          ) === 3 &&
          valueOf(all, 'baton_dead_letters_total', { topic: topics.inbound, reason: 'WIRE_FORMAT_INVALID' }) === 1 &&
          valueOf(all, 'baton_handoffs_routed_total', { handoff_type: 'ESCALATION' }) === 1 &&
          valueOf(all, 'baton_handoffs_routed_total', { handoff_type: 'NOTIFICATION' }) === 1;
        return done && all;
      },
      { description: "the router's counters to show the flow", timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(
      valueOf(samples, 'baton_handoffs_consumed_total', {
        ...consumed({ handoff_type: 'NOTIFICATION', issue_category: 'none', result: 'processed' }),
      }),
    ).toBe(1);
    expect(
      valueOf(samples, 'baton_handoffs_consumed_total', {
        ...consumed({ handoff_type: 'unknown', issue_category: 'unknown', result: 'dead_lettered' }),
      }),
    ).toBe(1);
    expect(
      valueOf(samples, 'baton_handoffs_routed_total', {
        service: 'router',
        handoff_type: 'TASK_TRANSFER',
        issue_category: 'SALES',
        rule: 'sales',
        target: 'sales_agent',
      }),
    ).toBe(3);
    expect(
      valueOf(samples, 'baton_handoffs_routed_total', {
        handoff_type: 'ESCALATION',
        issue_category: 'NETWORK_CONNECTIVITY',
        rule: 'recipient',
        target: 'sales_agent',
      }),
    ).toBe(1);
    expect(
      valueOf(samples, 'baton_handoffs_routed_total', {
        handoff_type: 'NOTIFICATION',
        issue_category: 'none',
        rule: 'default',
        target: 'triage_agent',
      }),
    ).toBe(1);
    expect(
      valueOf(samples, 'baton_handoff_processing_seconds_count', {
        handoff_type: 'TASK_TRANSFER',
        issue_category: 'SALES',
      }),
    ).toBe(3);
    expect(
      valueOf(samples, 'baton_handoff_outcomes_total', {
        handoff_type: 'TASK_TRANSFER',
        issue_category: 'SALES',
        outcome: 'ROUTED',
      }),
    ).toBe(3);
    expect(valueOf(samples, 'baton_handoff_processing_seconds_sum', { handoff_type: 'TASK_TRANSFER' })).toBeGreaterThan(
      0,
    );
  });

  it('the agent counts what it processed and dead-lettered, and logs the ids of the message', async () => {
    const samples = await waitFor(
      async () => {
        const all = await scrape(sales);
        return valueOf(all, 'baton_dead_letters_total', { reason: 'NO_HANDLER' }) === 1 &&
          valueOf(all, 'baton_handoffs_consumed_total', { issue_category: 'SALES', result: 'processed' }) === 3
          ? all
          : undefined;
      },
      { description: "sales's counters to show the flow", timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(
      valueOf(samples, 'baton_handoffs_consumed_total', {
        service: 'agent.sales_agent',
        topic: topics.agentInbox('sales_agent'),
        handoff_type: 'ESCALATION',
        issue_category: 'NETWORK_CONNECTIVITY',
        result: 'dead_lettered',
      }),
    ).toBe(1);
    expect(
      valueOf(samples, 'baton_dead_letters_total', { topic: topics.agentInbox('sales_agent'), reason: 'NO_HANDLER' }),
    ).toBe(1);
    expect(valueOf(samples, 'baton_handoff_processing_seconds_count', { handoff_type: 'TASK_TRANSFER' })).toBe(3);
    expect(
      valueOf(samples, 'baton_handoff_outcomes_total', {
        handoff_type: 'TASK_TRANSFER',
        issue_category: 'SALES',
        outcome: 'COMPLETED',
      }),
    ).toBe(3);

    const line = sales.logs.find((entry) => entry.event === 'message.dead_lettered');
    expect(line).toMatchObject({
      task_id: 'task-abc-456',
      message_id: escalationId,
      correlation_id: 'flow-xyz-123',
      code: 'NO_HANDLER',
    });
    // The reference escalation names its customer; no line names them.
    for (const service of [router, sales]) expect(JSON.stringify(service.logs)).not.toContain('John Doe');
  });

  it('both show the lag of every partition of their topic, the registry up and Node metrics', async () => {
    for (const [service, topic] of [
      [router, topics.inbound],
      [sales, topics.agentInbox('sales_agent')],
    ] as const) {
      // Once all is processed, no partition lags: not even by its last transaction's commit marker.
      const samples = await waitFor(
        async () => {
          const all = await scrape(service);
          const lags = all.filter((sample) => sample.name === 'baton_consumer_lag_messages');
          return lags.length === PARTITIONS && lags.every((sample) => sample.value === 0) && all;
        },
        { description: `the consumer lag of ${topic}`, timeoutMs: 30_000, intervalMs: 250 },
      );
      const lags = samples.filter((sample) => sample.name === 'baton_consumer_lag_messages');
      expect(lags.map((sample) => sample.labels.partition).sort()).toEqual(['0', '1', '2']);
      for (const sample of lags) expect(sample.labels.topic).toBe(topic);
      expect(valueOf(samples, 'baton_schema_registry_up')).toBe(1);
      expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(valueOf(samples, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    }
  });
});
