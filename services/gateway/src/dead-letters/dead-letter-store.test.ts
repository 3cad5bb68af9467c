import { describe, expect, it } from 'vitest';
import { DLQ_HEADERS, type ConsumedRecord } from '@baton/kafka';
import { parseFilter } from './dead-letter-filter.js';
import { DeadLetterStore } from './dead-letter-store.js';

const TOPIC = 'baton.agent.sales_agent.inbox.dlq';

function letter(offset: number, overrides: { task?: string; code?: string; type?: string; time?: string } = {}) {
  return {
    topic: TOPIC,
    partition: 0,
    offset: String(offset),
    key: overrides.task ?? `task-${offset}`,
    value: Buffer.from([0]),
    timestamp: String(Date.parse('2026-11-22T10:00:00Z') + offset),
    headers: {
      ce_id: `message-${offset}`,
      ce_type: overrides.type ?? 'TASK_TRANSFER',
      ce_source: offset % 2 === 0 ? 'triage_agent' : 'user',
      [DLQ_HEADERS.topic]: 'baton.agent.sales_agent.inbox',
      [DLQ_HEADERS.code]: overrides.code ?? 'NO_HANDLER',
      [DLQ_HEADERS.time]: overrides.time ?? new Date(Date.parse('2026-11-22T10:00:00Z') + offset * 1000).toISOString(),
    },
  } satisfies ConsumedRecord;
}

describe('DeadLetterStore', () => {
  it('lists newest first and pages with a cursor that stays stable while letters arrive', () => {
    const store = new DeadLetterStore(100);
    for (let offset = 0; offset < 5; offset += 1) store.add(letter(offset));
    const first = store.page(TOPIC, {}, 2);
    expect(first.records.map((record) => record.offset)).toEqual(['4', '3']);
    expect(first.total).toBe(5);
    store.add(letter(5));
    const second = store.page(TOPIC, {}, 2, first.next_cursor);
    expect(second.records.map((record) => record.offset)).toEqual(['2', '1']);
    const last = store.page(TOPIC, {}, 2, second.next_cursor);
    expect(last.records.map((record) => record.offset)).toEqual(['0']);
    expect(last.next_cursor).toBeUndefined();
  });

  it('filters on error code, task, handoff type, headers and time, all at once', () => {
    const store = new DeadLetterStore(100);
    store.add(letter(0, { code: 'NO_ROUTE' }));
    store.add(letter(1, { task: 'task-x', type: 'ESCALATION' }));
    store.add(letter(2, { task: 'task-x' }));
    store.add(letter(3));
    const ids = (parameters: Parameters<typeof parseFilter>[0]) =>
      store.matching(TOPIC, parseFilter(parameters)).map((record) => record.offset);
    expect(ids({ error_code: 'NO_ROUTE' })).toEqual(['0']);
    expect(ids({ task_id: 'task-x' })).toEqual(['2', '1']);
    expect(ids({ task_id: 'task-x', handoff_type: 'ESCALATION' })).toEqual(['1']);
    expect(ids({ header: ['ce_source=triage_agent'] })).toEqual(['2', '0']);
    expect(ids({ header: 'ce_source=user' })).toEqual(['3', '1']);
    expect(ids({ from: '2026-11-22T10:00:01Z', to: '2026-11-22T10:00:03Z' })).toEqual(['2', '1']);
  });

  it('keeps the newest letters up to its limit and still counts every one', () => {
    const store = new DeadLetterStore(2);
    for (let offset = 0; offset < 4; offset += 1) store.add(letter(offset));
    store.add(letter(3));
    expect(store.summaries()).toEqual([{ topic: TOPIC, source_topic: 'baton.agent.sales_agent.inbox', count: 4 }]);
    expect(store.matching(TOPIC, {}).map((record) => record.offset)).toEqual(['3', '2']);
    expect(() => store.get(TOPIC, '0-0')).toThrowError(expect.objectContaining({ code: 'DEAD_LETTER_NOT_FOUND' }));
    expect(store.get(TOPIC, '0-3').offset).toBe('3');
  });

  it('skips a letter read again, also once it is no longer in memory', () => {
    const store = new DeadLetterStore(2);
    for (let offset = 0; offset < 4; offset += 1) store.add(letter(offset));
    // A new reader of the topic reads it again from its beginning.
    for (let offset = 0; offset < 5; offset += 1) store.add(letter(offset));
    expect(store.summaries()).toEqual([{ topic: TOPIC, source_topic: 'baton.agent.sales_agent.inbox', count: 5 }]);
    expect(store.matching(TOPIC, {}).map((record) => record.offset)).toEqual(['4', '3']);
    store.add({ ...letter(1), partition: 1 });
    expect(store.summaries()[0]?.count).toBe(6);
  });

  it('answers DEAD_LETTER_NOT_FOUND for an unknown topic, and lists a known empty one', () => {
    const store = new DeadLetterStore(10);
    expect(() => store.page('nope.dlq', {}, 10)).toThrowError(
      expect.objectContaining({ code: 'DEAD_LETTER_NOT_FOUND', path: '/topic' }),
    );
    store.know('baton.handoffs.inbound.dlq');
    expect(store.summaries()).toEqual([
      { topic: 'baton.handoffs.inbound.dlq', source_topic: 'baton.handoffs.inbound', count: 0 },
    ]);
  });

  it('refuses malformed filters with REQUEST_INVALID and the parameter path', () => {
    expect(() => parseFilter({ header: 'no-equals' })).toThrowError(
      expect.objectContaining({ code: 'REQUEST_INVALID', path: '/query/header' }),
    );
    expect(() => parseFilter({ from: 'yesterday' })).toThrowError(
      expect.objectContaining({ code: 'REQUEST_INVALID', path: '/query/from' }),
    );
  });
});
