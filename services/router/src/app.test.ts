import { describe, expect, it } from 'vitest';
import type { ConsumedRecord, EncodedHeaders } from '@baton/kafka';
import { BatonError } from '@baton/errors';
import { METRIC_NAMES, createServiceMetrics } from '@baton/runtime';
import { ROUTE_HEADERS, forwarded, routedMetrics } from './app.js';

const record: ConsumedRecord = {
  topic: 'baton.handoffs.inbound',
  partition: 0,
  offset: '0',
  key: 'task-1',
  value: null,
  headers: { ce_type: 'TASK_TRANSFER' },
  timestamp: '0',
};

/** Headers in Kafka's record format, names and values under 64 bytes: each length one zigzag varint byte. */
function encoded(headers: Record<string, string>): EncodedHeaders {
  const parts = Object.entries(headers).flatMap(([name, value]) =>
    [name, value].flatMap((text) => [Buffer.from([Buffer.byteLength(text) * 2]), Buffer.from(text)]),
  );
  const bytes = Buffer.concat(parts);
  return { bytes, start: 0, end: bytes.length, count: Object.keys(headers).length };
}

describe('forwarded', () => {
  const encodedHeaders = encoded({ a: '1' });
  const value = Buffer.from([0, 0, 0, 0, 1]);

  it('carries the record on with its headers as fetched, and the decision in headers of its own', () => {
    const fetched = { ...record, value, headers: { a: '1' }, encodedHeaders };
    expect(forwarded(fetched, 'inbox', 'task-1', 'recipient', 'sales_agent', undefined)).toStrictEqual({
      topic: 'inbox',
      key: 'task-1',
      value,
      encodedHeaders,
      headers: { [ROUTE_HEADERS.rule]: 'recipient', [ROUTE_HEADERS.target]: 'sales_agent' },
      headersAdded: true,
    });
    expect(forwarded(fetched, 'inbox', 'task-1', 'r', 'human_agent', 'sales_agent').headers).toStrictEqual({
      [ROUTE_HEADERS.rule]: 'r',
      [ROUTE_HEADERS.target]: 'human_agent',
      [ROUTE_HEADERS.fallbackFor]: 'sales_agent',
    });
  });

  it("gives every record of one decision the same frozen headers, and a fallback's their own", () => {
    const fetched = { ...record, value, headers: { a: '1' }, encodedHeaders };
    const first = forwarded(fetched, 'inbox', 'task-1', 'recipient', 'sales_agent', undefined).headers;
    const second = forwarded(fetched, 'inbox', 'task-2', 'recipient', 'sales_agent', undefined).headers;
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(forwarded(fetched, 'inbox', 'task-1', 'recipient', 'human_agent', undefined).headers).not.toBe(first);
    const fallback = forwarded(fetched, 'inbox', 'task-1', 'recipient', 'sales_agent', 'x').headers;
    expect(fallback).not.toBe(forwarded(fetched, 'inbox', 'task-1', 'recipient', 'sales_agent', 'x').headers);
    expect(fallback).toStrictEqual({
      [ROUTE_HEADERS.rule]: 'recipient',
      [ROUTE_HEADERS.target]: 'sales_agent',
      [ROUTE_HEADERS.fallbackFor]: 'x',
    });
  });

  it("writes every header anew when the record carries an earlier decision's, which this one's replace", () => {
    const headers = { a: '1', [ROUTE_HEADERS.rule]: 'old', [ROUTE_HEADERS.fallbackFor]: 'someone' };
    const replayed = { ...record, value, encodedHeaders: encoded(headers), headers };
    expect(forwarded(replayed, 'inbox', 'task-1', 'recipient', 'sales_agent', undefined)).toStrictEqual({
      topic: 'inbox',
      key: 'task-1',
      value,
      headers: { a: '1', [ROUTE_HEADERS.rule]: 'recipient', [ROUTE_HEADERS.target]: 'sales_agent' },
    });
  });

  it('writes every header anew for a record whose headers were not handed over as fetched', () => {
    expect(
      forwarded({ ...record, value }, 'inbox', 'task-1', 'recipient', 'sales_agent', undefined).headers,
    ).toStrictEqual({
      ce_type: 'TASK_TRANSFER',
      [ROUTE_HEADERS.rule]: 'recipient',
      [ROUTE_HEADERS.target]: 'sales_agent',
    });
  });
});

describe('routedMetrics', () => {
  it('counts each committed dispatch by handoff_type, issue_category, rule and target', async () => {
    const registry = createServiceMetrics({ service: 'router' });
    const observer = routedMetrics(registry);
    const dispatch = (target: string) => ({
      topic: `baton.agent.${target}.inbox`,
      key: 'task-1',
      value: Buffer.alloc(0),
      headers: { ce_type: 'TASK_TRANSFER', [ROUTE_HEADERS.rule]: 'recipient', [ROUTE_HEADERS.target]: target },
    });
    const outcome = { topic: 'baton.events', key: 'task-1', value: Buffer.alloc(0), headers: { ce_type: 'x' } };
    observer.processed?.({
      record,
      messageId: 'm1',
      labels: { handoff_type: 'TASK_TRANSFER', issue_category: 'SALES' },
      attempt: 1,
      durationMs: 1,
      outputs: [dispatch('sales_agent'), dispatch('human_agent'), outcome],
    });
    const metric = registry.getSingleMetric(METRIC_NAMES.handoffsRouted);
    const values = (await metric?.get())?.values;
    const common = { handoff_type: 'TASK_TRANSFER', issue_category: 'SALES', rule: 'recipient' };
    expect(values).toEqual([
      { labels: { ...common, target: 'sales_agent' }, value: 1 },
      { labels: { ...common, target: 'human_agent' }, value: 1 },
    ]);
  });

  it('counts the handoffs the sender policy refused by handoff_type and recipient, and no other dead letter', async () => {
    const registry = createServiceMetrics({ service: 'router' });
    const observer = routedMetrics(registry);
    const deadLettered = (error: BatonError) =>
      observer.deadLettered?.({
        record,
        messageId: 'm1',
        labels: { handoff_type: 'ESCALATION', issue_category: 'NETWORK_CONNECTIVITY' },
        error,
        attempts: 1,
        deadLetterTopic: 'baton.handoffs.inbound.dlq',
      });
    const refusal = (recipient: string) =>
      new BatonError('NOT_AUTHORIZED', 'refused', {
        details: { stage: 'authorize', sender: 'x', handoff_type: 'ESCALATION', recipient },
      });
    deadLettered(refusal('human_agent'));
    deadLettered(refusal('human_agent'));
    deadLettered(refusal('sales_agent'));
    deadLettered(new BatonError('NO_ROUTE', 'nowhere', { details: { stage: 'route' } }));
    const values = (await registry.getSingleMetric(METRIC_NAMES.handoffsRefused)?.get())?.values;
    expect(values).toEqual([
      { labels: { handoff_type: 'ESCALATION', recipient: 'human_agent' }, value: 2 },
      { labels: { handoff_type: 'ESCALATION', recipient: 'sales_agent' }, value: 1 },
    ]);
  });
});
