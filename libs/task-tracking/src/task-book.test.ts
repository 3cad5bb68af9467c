import { describe, expect, it } from 'vitest';
import { HANDOFF_OUTCOMES, type HandoffOutcome, type HandoffOutcomeKind } from '@baton/protocol';
import { STATUS_TABLE, TaskBook, type OutcomeEvent, type TaskQuery } from './index.js';

let sequence = 0;

function event(taskId: string, outcome: HandoffOutcomeKind, extra: Partial<HandoffOutcome> = {}): OutcomeEvent {
  sequence += 1;
  return {
    event_id: `e${sequence}`,
    time: new Date(Date.UTC(2026, 10, 22, 10, 0, sequence)).toISOString(),
    task_id: taskId,
    message_id: `m${sequence}`,
    agent_id: 'agent_a',
    handoff_type: 'TASK_TRANSFER',
    outcome,
    ...extra,
  };
}

/** After every event's time: no test task is stuck by accident. */
const NOW = Date.UTC(2026, 10, 22, 10, 1);

/** The ids of the tasks `book` lists for `query`, newest first. */
function listed(book: TaskBook, query: Partial<TaskQuery> = {}): string[] {
  return book.search({ limit: 100, ...query }, NOW).tasks.map((task) => task.task_id);
}

function fold(events: OutcomeEvent[], book = new TaskBook()): TaskBook {
  for (const each of events) book.add(each);
  return book;
}

describe('TaskBook: timeline entries', () => {
  it('keeps each outcome event field for field, key order and absent fields included, when its strings are pooled', () => {
    // Fresh copies of equal strings, as a decoder hands them over event after event.
    const copy = (text: string) => Buffer.from(text).toString();
    const events = [1, 2, 3].map((n) =>
      event(copy('t'), 'ROUTED', {
        agent_id: copy('router'),
        sender_id: copy('sales_agent'),
        target: copy('human_agent'),
        detail: copy(`rule ${n % 2}`),
        parent_task_ids: [],
      }),
    );
    const timeline = fold(events).get('t')?.timeline;
    expect(timeline).toStrictEqual(events.map((each) => ({ kind: 'outcome', ...each })));
    expect(timeline?.map((entry) => Object.keys(entry))).toEqual(
      events.map((each) => Object.keys({ kind: 'outcome', ...each })),
    );
  });
});

describe('TaskBook: signed outcome events', () => {
  it('keeps no signature in the timeline: it was checked as the event was read', () => {
    const signed = event('t', 'ROUTED', { agent_id: 'router', target: 'agent_b', signature: 'ed25519:router-1:sig' });
    const [entry] = fold([signed]).get('t')?.timeline ?? [];
    expect(JSON.parse(JSON.stringify(entry))).toEqual({ kind: 'outcome', ...signed, signature: undefined });
    expect(entry).toHaveProperty('signature', undefined);
  });
});

describe('TaskBook: the status table', () => {
  it('covers every outcome', () => {
    expect(Object.keys(STATUS_TABLE).sort()).toEqual([...HANDOFF_OUTCOMES].sort());
  });

  it.each([
    ['ROUTED', 'EXECUTING', 'agent_b'],
    ['HANDED_OFF', 'EXECUTING', 'agent_b'],
    ['ESCALATED', 'EXECUTING', 'agent_b'],
    ['PROCESSED', 'EXECUTING', 'agent_a'],
    ['INFORMATION_REQUESTED', 'WAITING', 'agent_a'],
    ['HANDOFF_REQUESTED', 'WAITING', 'agent_a'],
    ['REPLIED', 'CREATE', null],
    ['DEAD_LETTERED', 'BREAK', null],
    ['COMPLETED', 'FINISH', null],
  ] as const)('a first event %s: CREATE, then %s, owner %s', (outcome, status, owner) => {
    const first = event('t', outcome, { target: 'agent_b' });
    const task = fold([first]).get('t');
    expect(task?.status).toBe(status);
    expect(task?.owner).toBe(owner);
    expect(task?.status_history[0]).toEqual({ status: 'CREATE', at: first.time, event_id: first.event_id });
    expect(task?.status_history.map((change) => change.status)).toEqual(
      status === 'CREATE' ? ['CREATE'] : ['CREATE', status],
    );
  });

  it('REPLIED keeps the status and the owner', () => {
    const book = fold([event('t', 'ROUTED', { target: 'agent_b' }), event('t', 'REPLIED', { agent_id: 'agent_b' })]);
    expect(book.get('t')).toMatchObject({ status: 'EXECUTING', owner: 'agent_b' });
    expect(book.get('t')?.status_history).toHaveLength(2);
  });

  it('keeps a task WAITING while its question is routed, and resumes on the answer', () => {
    const events = [
      event('t', 'ROUTED', { target: 'sales_agent' }),
      event('t', 'INFORMATION_REQUESTED', { agent_id: 'sales_agent', target: 'user_desk' }),
      event('t', 'ROUTED', { handoff_type: 'REQUEST_INFORMATION', target: 'user_desk' }),
    ];
    const book = fold(events);
    expect(book.get('t')).toMatchObject({ status: 'WAITING', owner: 'sales_agent' });
    book.add(
      event('t', 'HANDED_OFF', { agent_id: 'user_desk', handoff_type: 'PROVIDE_INFORMATION', target: 'sales_agent' }),
    );
    expect(book.get('t')).toMatchObject({ status: 'EXECUTING', owner: 'sales_agent' });
    expect(book.get('t')?.status_history.map((change) => change.status)).toEqual([
      'CREATE',
      'EXECUTING',
      'WAITING',
      'EXECUTING',
    ]);
  });

  it('follows a task through its whole life, with timestamps from the events', () => {
    const events = [
      event('t', 'ROUTED', { agent_id: 'router', target: 'triage_agent' }),
      event('t', 'HANDED_OFF', { agent_id: 'triage_agent', target: 'sales_agent' }),
      event('t', 'ROUTED', { agent_id: 'router', target: 'sales_agent' }),
      event('t', 'ESCALATED', { agent_id: 'sales_agent', target: 'human_agent' }),
      event('t', 'ROUTED', { agent_id: 'router', target: 'human_agent' }),
      event('t', 'PROCESSED', { agent_id: 'human_agent' }),
      event('t', 'COMPLETED', { agent_id: 'human_agent' }),
    ];
    const task = fold(events).get('t');
    expect(task).toMatchObject({
      status: 'FINISH',
      owner: null,
      counts: { events: 7, outcomes: { ROUTED: 3, HANDED_OFF: 1, ESCALATED: 1, PROCESSED: 1, COMPLETED: 1 } },
      created_at: events[0]?.time,
      updated_at: events[6]?.time,
    });
    expect(task?.timeline).toEqual(events.map((each) => ({ kind: 'outcome', ...each })));
    expect(task?.status_history).toEqual([
      { status: 'CREATE', at: events[0]?.time, event_id: events[0]?.event_id },
      { status: 'EXECUTING', at: events[0]?.time, event_id: events[0]?.event_id },
      { status: 'FINISH', at: events[6]?.time, event_id: events[6]?.event_id },
    ]);
  });

  it('owner follows each hop; a dead letter breaks the task and a replay resumes it', () => {
    const book = new TaskBook();
    book.add(event('t', 'ROUTED', { agent_id: 'router', target: 'a,b' }));
    expect(book.get('t')?.owner).toBe('a,b');
    book.add(event('t', 'DEAD_LETTERED', { agent_id: 'a', error_code: 'NO_HANDLER' }));
    expect(book.get('t')).toMatchObject({ status: 'BREAK', owner: null });
    book.add(event('t', 'ROUTED', { agent_id: 'router', target: 'c' }));
    expect(book.get('t')).toMatchObject({ status: 'EXECUTING', owner: 'c' });
  });
});

describe('TaskBook: events', () => {
  it('folds each event_id once', () => {
    const routed = event('t', 'ROUTED', { target: 'b' });
    const done = event('t', 'COMPLETED');
    const book = new TaskBook();
    expect(book.add(routed)).toBe(true);
    expect(book.add(routed)).toBe(false);
    expect(book.add(done)).toBe(true);
    expect(book.add(routed)).toBe(false);
    expect(book.get('t')).toMatchObject({ status: 'FINISH', counts: { events: 2 } });
    expect(book.get('t')?.timeline).toEqual([routed, done].map((each) => ({ kind: 'outcome', ...each })));
  });

  it('depends only on the events and their order: a rebuild, with redeliveries, equals the original', () => {
    const events = [
      event('p', 'ROUTED', { target: 'planner' }),
      event('p.1', 'ROUTED', { target: 'worker', parent_task_ids: ['p'] }),
      event('p', 'HANDED_OFF', { target: 'worker' }),
      event('p.1', 'COMPLETED', { parent_task_ids: ['p'] }),
      event('x', 'DEAD_LETTERED'),
      event('p', 'COMPLETED'),
    ];
    const once = fold(events);
    const again = fold([...events.slice(0, 3), ...events, ...events.slice(2)]);
    for (const id of ['p', 'p.1', 'x']) expect(again.get(id)).toEqual(once.get(id));
    expect(again.search({ limit: 10 }, NOW)).toEqual(once.search({ limit: 10 }, NOW));
    expect(again.statusCounts()).toEqual(once.statusCounts());
  });

  it('answers undefined for a task it has no event of', () => {
    expect(new TaskBook().get('nope')).toBeUndefined();
  });

  it('gives out copies: changing an answer changes nothing inside', () => {
    const book = fold([event('t', 'ROUTED', { target: 'b' })]);
    const view = book.get('t');
    view?.timeline.pop();
    view?.status_history.pop();
    expect(book.get('t')?.timeline).toHaveLength(1);
    expect(book.get('t')?.status_history).toHaveLength(2);
  });
});

describe('TaskBook: parents and children', () => {
  const parentEvents = () => [event('p', 'ROUTED', { target: 'planner' }), event('p', 'HANDED_OFF', { target: 'w' })];
  const childEvents = () => [
    event('p.2', 'ROUTED', { target: 'w', parent_task_ids: ['p'] }),
    event('p.1', 'ROUTED', { target: 'w', parent_task_ids: ['p'] }),
    event('p.1', 'COMPLETED', { parent_task_ids: ['p'] }),
  ];

  it('lists children when the parent is read first', () => {
    const book = fold([...parentEvents(), ...childEvents()]);
    expect(book.get('p')).toMatchObject({ children: ['p.1', 'p.2'], parent_task_ids: [] });
    expect(book.get('p.1')).toMatchObject({ parent_task_ids: ['p'], children: [], status: 'FINISH' });
  });

  it('lists children when they are read before the parent, and the parent is no task until it has an event', () => {
    const book = fold(childEvents());
    expect(book.get('p')).toBeUndefined();
    expect(listed(book)).toEqual(['p.1', 'p.2']);
    fold(parentEvents(), book);
    expect(book.get('p')).toMatchObject({ children: ['p.1', 'p.2'], status: 'EXECUTING', owner: 'w' });
  });

  it('gives the same answer in either order', () => {
    const parent = parentEvents();
    const children = childEvents();
    const a = fold([...parent, ...children]);
    const b = fold([...children, ...parent]);
    for (const id of ['p', 'p.1', 'p.2']) expect(b.get(id)).toEqual(a.get(id));
  });

  it('keeps every parent a task names, once each', () => {
    const book = fold([
      event('c', 'ROUTED', { target: 'w', parent_task_ids: ['p', 'q'] }),
      event('c', 'HANDED_OFF', { target: 'w', parent_task_ids: ['q', 'r'] }),
      event('p', 'ROUTED', { target: 'x' }),
      event('r', 'ROUTED', { target: 'x' }),
    ]);
    expect(book.get('c')?.parent_task_ids).toEqual(['p', 'q', 'r']);
    expect(book.get('p')?.children).toEqual(['c']);
    expect(book.get('r')?.children).toEqual(['c']);
  });
});

describe('TaskBook: lists and counts', () => {
  it("lists a flow's tasks by its correlation id: events correlated with it, and the message that started it", () => {
    const book = fold([
      event('t-start', 'ROUTED', { message_id: 'flow-1' }),
      event('t-next', 'HANDED_OFF', { correlation_id: 'flow-1' }),
      event('t-other', 'ROUTED', { correlation_id: 'flow-2' }),
    ]);
    expect(listed(book, { correlationId: 'flow-1' })).toEqual(['t-next', 't-start']);
    expect(listed(book, { correlationId: 'flow-3' })).toEqual([]);
  });

  it('lists newest first, filtered by status and limited', () => {
    const book = fold([
      event('b', 'COMPLETED'),
      event('a', 'COMPLETED'),
      event('c', 'ROUTED', { target: 'x' }),
      event('d', 'DEAD_LETTERED'),
      event('e', 'INFORMATION_REQUESTED'),
    ]);
    expect(listed(book, { statuses: ['FINISH'] })).toEqual(['a', 'b']);
    expect(listed(book, { statuses: ['FINISH'], limit: 1 })).toEqual(['a']);
    expect(listed(book)).toEqual(['e', 'd', 'c', 'a', 'b']);
    expect(book.search({ limit: 1 }, NOW).tasks[0]).not.toHaveProperty('timeline');
    expect(book.statusCounts()).toEqual({
      CREATE: 0,
      EXECUTING: 1,
      WAITING: 1,
      BREAK: 1,
      FINISH: 2,
      FAILED: 0,
      EXPIRED: 0,
    });
  });

  it('forgets the task updated least recently past its bound', () => {
    const book = fold(
      [
        event('t1', 'ROUTED', { target: 'x' }),
        event('t2', 'ROUTED', { target: 'x' }),
        event('t1', 'COMPLETED'),
        event('t3', 'ROUTED', { target: 'x' }),
      ],
      new TaskBook({ maxTasks: 2 }),
    );
    expect(book.size).toBe(2);
    expect(book.get('t2')).toBeUndefined();
    expect(book.get('t1')?.timeline).toHaveLength(2);
  });

  it('forgets the tasks updated least recently while it holds more timeline entries than maxEvents', () => {
    const book = fold(
      [
        event('t1', 'ROUTED', { target: 'x' }),
        event('t2', 'ROUTED', { target: 'x' }),
        event('t1', 'COMPLETED'),
        event('t3', 'ROUTED', { target: 'x' }),
        event('t3', 'COMPLETED'),
      ],
      new TaskBook({ maxEvents: 4 }),
    );
    expect(book.size).toBe(2);
    expect(book.get('t2')).toBeUndefined();
    expect(book.get('t1')?.timeline).toHaveLength(2);
    expect(book.get('t3')?.timeline).toHaveLength(2);
  });

  it('keeps the newest maxEventsPerTask entries of a task, and still counts, dates and folds every event', () => {
    const events = [
      event('t1', 'ROUTED', { target: 'a' }),
      event('t1', 'PROCESSED'),
      event('t1', 'HANDED_OFF', { target: 'b' }),
      event('t1', 'PROCESSED'),
      event('t1', 'COMPLETED'),
    ];
    const book = fold(events, new TaskBook({ maxEventsPerTask: 3 }));
    const task = book.get('t1');
    expect(task?.timeline.map((entry) => entry.kind === 'outcome' && entry.event_id)).toEqual(
      events.slice(2).map((each) => each.event_id),
    );
    expect(task?.counts).toEqual({ events: 5, outcomes: { ROUTED: 1, PROCESSED: 2, HANDED_OFF: 1, COMPLETED: 1 } });
    expect(task?.created_at).toBe(events[0]?.time);
    expect(task?.updated_at).toBe(events[4]?.time);
    expect(task?.status).toBe('FINISH');
    expect(task?.status_history.map((change) => change.status)).toEqual(['CREATE', 'EXECUTING', 'FINISH']);
    // An event still in the timeline is recognised when read again.
    expect(book.add(events[4] as OutcomeEvent)).toBe(false);
  });

  it('counts only the entries a task keeps against maxEvents', () => {
    const book = new TaskBook({ maxEventsPerTask: 3, maxEvents: 4 });
    for (let n = 0; n < 5; n += 1) book.add(event('t1', 'PROCESSED'));
    book.add(event('t2', 'ROUTED', { target: 'x' }));
    expect(book.size).toBe(2);
    book.add(event('t2', 'COMPLETED'));
    expect(book.size).toBe(1);
    expect(book.get('t1')).toBeUndefined();
    expect(book.get('t2')?.timeline).toHaveLength(2);
  });
});
