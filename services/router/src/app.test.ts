import { describe, expect, it } from 'vitest';
import type { ConsumedRecord } from '@baton/kafka';
import { METRIC_NAMES, createServiceMetrics } from '@baton/runtime';
import { ROUTE_HEADERS, routedMetrics } from './app.js';

const record: ConsumedRecord = {
  topic: 'baton.handoffs.inbound',
  partition: 0,
  offset: '0',
  key: 'task-1',
  value: null,
  headers: { ce_type: 'TASK_TRANSFER' },
  timestamp: '0',
};

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
});
