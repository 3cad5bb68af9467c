import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatonError } from '@baton/errors';
import type { ConsumedRecord } from '@baton/kafka';
import {
  METRIC_NAMES,
  consumerMetrics,
  createServiceMetrics,
  eventLabels,
  registerConsumerLag,
  registerSchemaRegistryUp,
} from './metrics.js';

function record(headers: Record<string, string> = {}): ConsumedRecord {
  return {
    topic: 'baton.handoffs.inbound',
    partition: 0,
    offset: '0',
    key: 'task-1',
    value: null,
    headers,
    timestamp: '0',
  };
}

/** The samples of one metric as `labels -> value`. */
async function samples(
  registry: ReturnType<typeof createServiceMetrics>,
  name: string,
): Promise<{ labels: Record<string, string | number>; value: number; metricName?: string }[]> {
  const metric = registry.getSingleMetric(name);
  if (metric === undefined) throw new Error(`${name} is not registered`);
  return (await metric.get()).values as never;
}

describe('createServiceMetrics', () => {
  it("has Node's default metrics and the service label, and no consumer metric unless asked", async () => {
    const registry = createServiceMetrics({ service: 'gateway' });
    const text = await registry.metrics();
    expect(text).toMatch(/^process_resident_memory_bytes\{service="gateway"\} \d+/m);
    expect(text).not.toContain(METRIC_NAMES.handoffsConsumed);
    expect(text).not.toContain(METRIC_NAMES.schemaRegistryUp);
  });
});

describe('baton_schema_registry_up', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      const answer =
        request.url === '/apis/ccompat/v7/subjects'
          ? 200
          : request.url === '/authenticated/subjects'
            ? request.headers.authorization === `Basic ${Buffer.from('router:s3cret').toString('base64')}`
              ? 200
              : 401
            : 404;
      response.writeHead(answer).end('[]');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is 1 when GET <url>/subjects answers 2xx', async () => {
    const registry = createServiceMetrics({ service: 's', schemaRegistry: { url: `${url}/apis/ccompat/v7/` } });
    expect(await registry.metrics()).toMatch(/^baton_schema_registry_up\{service="s"\} 1$/m);
  });

  it("asks an authenticated registry with the service's credentials: 1 with them, 0 without", async () => {
    const authenticated = { url: `${url}/authenticated` };
    const asRouter = createServiceMetrics({
      service: 's',
      schemaRegistry: { ...authenticated, basicAuth: { username: 'router', password: 's3cret' } },
    });
    expect((await samples(asRouter, METRIC_NAMES.schemaRegistryUp))[0]?.value).toBe(1);
    const anonymous = createServiceMetrics({ service: 's', schemaRegistry: authenticated });
    expect((await samples(anonymous, METRIC_NAMES.schemaRegistryUp))[0]?.value).toBe(0);
  });

  it('is 0 when the registry answers an error or nothing listens', async () => {
    const registry = createServiceMetrics({ service: 's' });
    registerSchemaRegistryUp(registry, { url: `${url}/elsewhere` });
    expect((await samples(registry, METRIC_NAMES.schemaRegistryUp))[0]?.value).toBe(0);
    const closed = createServiceMetrics({ service: 's', schemaRegistry: { url: 'http://127.0.0.1:1' } });
    expect((await samples(closed, METRIC_NAMES.schemaRegistryUp))[0]?.value).toBe(0);
  });
});

describe('consumerMetrics', () => {
  it('labels what the consumer reports with the handoff_type and issue_category of the decoded message', async () => {
    const registry = createServiceMetrics({ service: 's' });
    const observer = consumerMetrics(registry);
    const labels = { handoff_type: 'TASK_TRANSFER', issue_category: 'SALES' };
    observer.processed?.({ record: record(), messageId: 'm1', labels, attempt: 1, durationMs: 12, outputs: [] });
    observer.duplicate?.({ record: record(), messageId: 'm1', labels });
    observer.retryScheduled?.({
      record: record(),
      messageId: 'm2',
      labels,
      error: new BatonError('HANDLER_FAILED', 'boom'),
      attempt: 1,
      delayMs: 200,
    });
    // Undecodable: the header's type counts when it is a known one, the category is unknown.
    observer.deadLettered?.({
      record: record({ ce_type: 'ESCALATION' }),
      messageId: undefined,
      labels: {},
      error: new BatonError('VALIDATION_FAILED', 'bad'),
      attempts: 1,
      deadLetterTopic: 'baton.handoffs.inbound.dlq',
    });
    const consumed = await samples(registry, METRIC_NAMES.handoffsConsumed);
    const topic = 'baton.handoffs.inbound';
    expect(consumed.map(({ labels: l, value }) => ({ ...l, value }))).toEqual(
      expect.arrayContaining([
        { topic, ...labels, result: 'processed', value: 1 },
        { topic, ...labels, result: 'duplicate', value: 1 },
        { topic, handoff_type: 'ESCALATION', issue_category: 'unknown', result: 'dead_lettered', value: 1 },
      ]),
    );
    const histogram = await samples(registry, METRIC_NAMES.processingSeconds);
    expect(histogram.find((sample) => sample.metricName?.endsWith('_count'))).toMatchObject({ labels, value: 1 });
    expect(histogram.find((sample) => sample.metricName?.endsWith('_sum'))?.value).toBeCloseTo(0.012);
    expect(await samples(registry, METRIC_NAMES.retries)).toMatchObject([
      { labels: { handoff_type: 'TASK_TRANSFER', code: 'HANDLER_FAILED' }, value: 1 },
    ]);
    expect(await samples(registry, METRIC_NAMES.deadLetters)).toMatchObject([
      { labels: { topic, reason: 'VALIDATION_FAILED' }, value: 1 },
    ]);
  });

  it('counts transactions and the messages each committed', async () => {
    const registry = createServiceMetrics({ service: 's' });
    const observer = consumerMetrics(registry);
    const topic = 'baton.handoffs.inbound';
    observer.transactionCommitted?.({ topic, partition: 0, messages: 40, outputs: 80, durationMs: 9 });
    observer.transactionCommitted?.({ topic, partition: 1, messages: 1, outputs: 2, durationMs: 4 });
    const histogram = await samples(registry, METRIC_NAMES.transactionMessages);
    expect(histogram.find((sample) => sample.metricName?.endsWith('_count'))).toMatchObject({
      labels: { topic },
      value: 2,
    });
    expect(histogram.find((sample) => sample.metricName?.endsWith('_sum'))?.value).toBe(41);
  });
});

describe('baton_consumer_lag_messages', () => {
  it('has one series per partition, read on scrape and reused within the cache time', async () => {
    const registry = createServiceMetrics({ service: 's' });
    let reads = 0;
    registerConsumerLag(registry, {
      topic: 't',
      read: async () => {
        reads += 1;
        return [
          { partition: 0, lag: 0 },
          { partition: 1, lag: 5 },
        ];
      },
    });
    const text = await registry.metrics();
    expect(text).toMatch(/^baton_consumer_lag_messages\{topic="t",partition="0",service="s"\} 0$/m);
    expect(text).toMatch(/^baton_consumer_lag_messages\{topic="t",partition="1",service="s"\} 5$/m);
    await registry.metrics();
    expect(reads).toBe(1);
  });

  it('has no series, and /metrics still answers, when the read fails or is late', async () => {
    const registry = createServiceMetrics({ service: 's' });
    registerConsumerLag(registry, { topic: 't', read: () => Promise.reject(new Error('no broker')) });
    const late = createServiceMetrics({ service: 's' });
    registerConsumerLag(late, { topic: 't', read: () => new Promise(() => undefined), timeoutMs: 20 });
    for (const each of [registry, late]) {
      const text = await each.metrics();
      expect(text).toContain('# TYPE baton_consumer_lag_messages gauge');
      expect(text).not.toMatch(/^baton_consumer_lag_messages\{/m);
      expect(text).toContain('process_resident_memory_bytes');
    }
  });
});

describe('eventLabels', () => {
  it("takes a handoff's labels as they are, without reading the record's headers", () => {
    const labels = Object.freeze({ handoff_type: 'ESCALATION', issue_category: 'NETWORK' });
    const unread = {
      get headers(): Record<string, string> {
        throw new Error('headers read');
      },
    };
    expect(eventLabels(labels, unread)).toBe(labels);
  });

  it("makes the two labels from the record's ce_type when the labels are not a handoff's", () => {
    expect(eventLabels({}, record({ ce_type: 'ESCALATION' }))).toEqual({
      handoff_type: 'ESCALATION',
      issue_category: 'unknown',
    });
    // Other names never reach a metric labelled by these two.
    expect(eventLabels({ handoff_type: 'HandoffRequest', kind: 'x', issue_category: 'A' }, record())).toEqual({
      handoff_type: 'HandoffRequest',
      issue_category: 'A',
    });
  });
});
