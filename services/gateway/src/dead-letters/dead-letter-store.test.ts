import { describe, expect, it } from 'vitest';
import { DLQ_HEADERS, type ConsumedRecord } from '@baton/kafka';
import { agentOfDeadLetterTopic, parseFilter } from './dead-letter-filter.js';
import { DeadLetterStore, deadLetterId } from './dead-letter-store.js';

const TOPIC = 'baton.agent.sales_agent.inbox.dlq';

function letter(
  offset: number,
  overrides: { task?: string; code?: string; type?: string; time?: string; topic?: string } = {},
) {
  return {
    topic: overrides.topic ?? TOPIC,
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
  it('tells its read listeners of every read of the dead letters, not of what it is given', () => {
    const store = new DeadLetterStore(10);
    let reads = 0;
    store.onRead(() => (reads += 1));
    store.know(TOPIC);
    store.add(letter(1));
    expect(reads).toBe(0);
    store.summaries();
    store.stats();
    store.page(TOPIC, parseFilter({}), 10);
    store.pageAll(parseFilter({}), 10);
    store.get(TOPIC, deadLetterId(letter(1)));
    expect(reads).toBe(5);
  });

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

  it('lists every topic in one, newest read first, filtered and paged with one cursor', () => {
    const store = new DeadLetterStore(100);
    const ROUTER = 'baton.handoffs.inbound.dlq';
    store.add(letter(0));
    store.add(letter(0, { topic: ROUTER, code: 'NO_ROUTE' }));
    store.add(letter(1));
    store.add(letter(1, { topic: ROUTER, code: 'NO_ROUTE' }));
    store.add(letter(2));
    const first = store.pageAll({}, 3);
    expect(first.records.map((record) => `${record.topic}/${record.offset}`)).toEqual([
      `${TOPIC}/2`,
      `${ROUTER}/1`,
      `${TOPIC}/1`,
    ]);
    expect(first.total).toBe(5);
    const rest = store.pageAll({}, 3, first.next_cursor);
    expect(rest.records.map((record) => `${record.topic}/${record.offset}`)).toEqual([`${ROUTER}/0`, `${TOPIC}/0`]);
    expect(rest.next_cursor).toBeUndefined();
    expect(store.pageAll(parseFilter({ error_code: 'NO_ROUTE' }), 10).records.map((record) => record.topic)).toEqual([
      ROUTER,
      ROUTER,
    ]);
    expect(store.pageAll({}, 10, undefined, new Set([TOPIC])).total).toBe(3);
  });

  it('totals every letter ever read by error code and by topic, non-empty topics first, most first', () => {
    const store = new DeadLetterStore(1);
    const ROUTER = 'baton.handoffs.inbound.dlq';
    store.know('baton.agent.human_agent.inbox.dlq');
    for (let offset = 0; offset < 3; offset += 1) store.add(letter(offset));
    store.add(letter(0, { topic: ROUTER, code: 'NO_ROUTE' }));
    store.add(letter(1, { topic: ROUTER, code: 'VALIDATION_FAILED' }));
    store.add(letter(3, { code: 'NO_ROUTE' }));
    expect(store.stats()).toEqual({
      total: 6,
      by_error_code: [
        { error_code: 'NO_HANDLER', count: 3 },
        { error_code: 'NO_ROUTE', count: 2 },
        { error_code: 'VALIDATION_FAILED', count: 1 },
      ],
      by_topic: [
        { topic: TOPIC, source_topic: 'baton.agent.sales_agent.inbox', count: 4 },
        { topic: ROUTER, source_topic: 'baton.handoffs.inbound', count: 2 },
      ],
      empty_topics: 1,
    });
  });
});

describe('agentOfDeadLetterTopic', () => {
  it.each([
    ['baton.agent.sales_agent.inbox.dlq', 'sales_agent'],
    ['acme.agent.human_agent.control.dlq', 'human_agent'],
    ['baton.handoffs.inbound.dlq', 'router'],
    ['baton.agent.sales_agent.inbox', undefined],
    ['baton.tracker.dlq', undefined],
  ])('%s is %s', (topic, agent) => {
    expect(agentOfDeadLetterTopic(topic)).toBe(agent);
  });
});
