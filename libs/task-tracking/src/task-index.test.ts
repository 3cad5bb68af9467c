import { describe, expect, it } from 'vitest';
import {
  buildLifecycleMessage,
  nameBasedUuid,
  type HandoffOutcome,
  type HandoffOutcomeKind,
  type Immutable,
  type LifecycleMessage,
} from '@baton/protocol';
import { InvalidCursorError, TaskBook, type TaskQuery } from './index.js';

const START = Date.UTC(2026, 11, 7, 9, 0, 0);
const at = (seconds: number): string => new Date(START + seconds * 1_000).toISOString();

let sequence = 0;

function outcome(
  taskId: string,
  kind: HandoffOutcomeKind,
  seconds: number,
  extra: Partial<HandoffOutcome> = {},
): HandoffOutcome {
  sequence += 1;
  return {
    event_id: `e${sequence}`,
    time: at(seconds),
    task_id: taskId,
    message_id: `m-${taskId}-${sequence}`,
    agent_id: 'router',
    handoff_type: 'TASK_TRANSFER',
    outcome: kind,
    ...extra,
  };
}

function listed(book: TaskBook, query: Partial<TaskQuery>, now = START + 60_000): string[] {
  return book.search({ limit: 100, ...query }, now).tasks.map((task) => task.task_id);
}

/** Tasks t0 ... t(n-1), created a second apart, each routed to an agent. */
function routedTasks(count: number, book = new TaskBook()): TaskBook {
  for (let index = 0; index < count; index += 1) {
    book.add(outcome(`t${index}`, 'ROUTED', index, { target: 'triage_agent' }));
  }
  return book;
}

describe('TaskIndex: a row per task', () => {
  it('sums up a task: status, owner, types, categories, agents, error codes, ids and the last outcome', () => {
    const book = new TaskBook();
    book.add(
      outcome('t', 'ROUTED', 1, {
        message_id: 'm1',
        correlation_id: 'flow-1',
        sender_id: 'customer_portal',
        recipient_id: 'triage_agent,sales_agent',
        target: 'triage_agent',
        issue_category: 'BILLING',
      }),
    );
    book.add(
      outcome('t', 'DEAD_LETTERED', 3, {
        message_id: 'm1',
        agent_id: 'triage_agent',
        handoff_type: 'TASK_TRANSFER',
        error_code: 'RETRIES_EXHAUSTED',
      }),
    );
    expect(book.search({ limit: 10 }, START + 10_000)).toEqual({
      total: 1,
      tasks: [
        {
          task_id: 't',
          status: 'BREAK',
          owner: null,
          handoff_types: ['TASK_TRANSFER'],
          issue_categories: ['BILLING'],
          agents: ['router', 'customer_portal', 'triage_agent', 'sales_agent'],
          error_codes: ['RETRIES_EXHAUSTED'],
          correlation_id: 'flow-1',
          parent_task_ids: [],
          last_outcome: {
            outcome: 'DEAD_LETTERED',
            agent_id: 'triage_agent',
            time: at(3),
            error_code: 'RETRIES_EXHAUSTED',
          },
          events: 2,
          created_at: at(1),
          updated_at: at(3),
        },
      ],
    });
  });

  it('takes agents and error codes from lifecycle messages and staged contexts too', () => {
    const book = new TaskBook();
    book.apply({
      kind: 'staged',
      value: {
        request_message_id: nameBasedUuid('r1'),
        task_id: 't',
        sender_id: 'triage_agent',
        staged_at: at(1),
        context: { context_data: { task_description: 'router reboot loop' } },
        terms: { desired_agent_type: 'NetworkExpert', reason: 'lacks the skill' },
      },
    });
    const error = buildLifecycleMessage(
      'ErrorNotification',
      {
        sender_id: 'network_expert',
        receiver_id: 'triage_agent',
        task_id: 't',
        correlation_id: nameBasedUuid('r1'),
        payload: {
          error_code: 'CAPACITY_EXCEEDED',
          error_message: 'no engineer free',
          severity: 'WARNING',
          origin_agent_id: 'network_expert',
        },
      },
      { newId: () => nameBasedUuid('n1'), now: () => new Date(START + 2_000) },
    );
    book.apply({ kind: 'lifecycle', value: error as Immutable<LifecycleMessage> });
    const [row] = book.search({ limit: 1 }, START).tasks;
    expect(row).toMatchObject({
      agents: ['triage_agent', 'network_expert'],
      error_codes: ['CAPACITY_EXCEEDED'],
      status: 'WAITING',
      owner: 'triage_agent',
      events: 2,
      updated_at: at(2),
    });
    expect(listed(book, { correlationId: nameBasedUuid('r1') })).toEqual(['t']);
  });
});

describe('TaskIndex: filters', () => {
  const book = new TaskBook();
  book.add(
    outcome('refund-1', 'ROUTED', 1, { target: 'refunds_agent', issue_category: 'BILLING', correlation_id: 'c-77' }),
  );
  book.add(outcome('refund-1', 'COMPLETED', 2, { agent_id: 'refunds_agent' }));
  book.add(
    outcome('net-2', 'ROUTED', 3, { target: 'network_expert', handoff_type: 'ESCALATION', issue_category: 'NETWORK' }),
  );
  book.add(outcome('net-2', 'DEAD_LETTERED', 4, { agent_id: 'network_expert', error_code: 'HANDLER_FAILED' }));
  book.add(outcome('sale-3', 'ROUTED', 5, { target: 'sales_agent', parent_task_ids: ['plan-9'] }));

  it.each<[string, Partial<TaskQuery>, string[]]>([
    ['no filter: newest first', {}, ['sale-3', 'net-2', 'refund-1']],
    ['one status', { statuses: ['FINISH'] }, ['refund-1']],
    ['any of several statuses', { statuses: ['FINISH', 'BREAK'] }, ['net-2', 'refund-1']],
    ['an agent that reported', { agent: 'refunds_agent' }, ['refund-1']],
    ['an agent routed to', { agent: 'sales_agent' }, ['sale-3']],
    ['a handoff type', { handoffType: 'ESCALATION' }, ['net-2']],
    ['an issue category', { issueCategory: 'BILLING' }, ['refund-1']],
    ['an error code', { errorCode: 'HANDLER_FAILED' }, ['net-2']],
    ['updated at or after `from`', { from: START + 4_000 }, ['sale-3', 'net-2']],
    ['created at or before `to`', { to: START + 3_000 }, ['net-2', 'refund-1']],
    ['text in the task id', { text: 'net' }, ['net-2']],
    ['text in a correlation id', { text: 'c-7' }, ['refund-1']],
    ['text in a parent id', { text: 'plan' }, ['sale-3']],
    ['a correlation id, exactly', { correlationId: 'c-77' }, ['refund-1']],
    ['filters together', { statuses: ['EXECUTING'], agent: 'sales_agent', text: 'sale' }, ['sale-3']],
    ['filters that exclude each other', { statuses: ['FINISH'], agent: 'sales_agent' }, []],
  ])('%s', (_name, query, expected) => {
    expect(listed(book, query)).toEqual(expected);
    expect(book.search({ limit: 100, ...query }, START + 60_000).total).toBe(expected.length);
  });
});

describe('TaskIndex: stuck tasks', () => {
  it('is stuck when EXECUTING without an event for the threshold, not before, and never when finished', () => {
    const book = new TaskBook({ list: { stuckAfterMs: 60_000 } });
    book.add(outcome('quiet', 'ROUTED', 0, { target: 'triage_agent' }));
    book.add(outcome('done', 'ROUTED', 0, { target: 'triage_agent' }));
    book.add(outcome('done', 'COMPLETED', 1, { agent_id: 'triage_agent' }));
    expect(listed(book, { statuses: ['STUCK'] }, START + 59_999)).toEqual([]);
    expect(listed(book, { statuses: ['STUCK'] }, START + 60_000)).toEqual(['quiet']);
    expect(book.search({ limit: 1, statuses: ['STUCK'] }, START + 60_000).tasks[0]?.stuck).toBe('silent');
    expect(book.stuckByOwner(START + 60_000)).toEqual([{ owner: 'triage_agent', count: 1 }]);
    expect(book.stuckByOwner(START + 59_999)).toEqual([]);
    // A query may ask for another threshold.
    expect(listed(book, { statuses: ['STUCK'], stuckAfterMs: 10_000 }, START + 10_000)).toEqual(['quiet']);
  });

  it('is stuck once the routed handoff is past its expiration_time, until its agent reports on it', () => {
    const book = new TaskBook({ list: { stuckAfterMs: 3_600_000 } });
    book.add(outcome('late', 'ROUTED', 0, { message_id: 'm', target: 'triage_agent', expiration_time: at(30) }));
    expect(listed(book, { statuses: ['STUCK'] }, START + 30_000)).toEqual([]);
    const [row] = book.search({ limit: 1, statuses: ['STUCK'] }, START + 30_001).tasks;
    expect(row).toMatchObject({ task_id: 'late', stuck: 'deadline', expires_at: at(30) });
    book.add(outcome('late', 'PROCESSED', 40, { message_id: 'm', agent_id: 'triage_agent' }));
    expect(listed(book, { statuses: ['STUCK'] }, START + 41_000)).toEqual([]);
    expect(book.search({ limit: 1 }, START + 41_000).tasks[0]).not.toHaveProperty('expires_at');
  });
});

describe('TaskIndex: paging', () => {
  it('walks every task once, newest first, while new tasks arrive and listed ones are updated', () => {
    const book = routedTasks(10);
    const first = book.search({ limit: 4 });
    expect(first.tasks.map((task) => task.task_id)).toEqual(['t9', 't8', 't7', 't6']);
    expect(first.total).toBe(10);
    // Between pages: two new tasks, one on the first page updated, one on the next page updated.
    book.add(outcome('t10', 'ROUTED', 10, { target: 'triage_agent' }));
    book.add(outcome('t11', 'ROUTED', 11, { target: 'triage_agent' }));
    book.add(outcome('t8', 'COMPLETED', 12, { agent_id: 'triage_agent' }));
    book.add(outcome('t3', 'COMPLETED', 13, { agent_id: 'triage_agent' }));
    const second = book.search({ limit: 4, cursor: first.nextCursor as string });
    expect(second.tasks.map((task) => task.task_id)).toEqual(['t5', 't4', 't3', 't2']);
    expect(second.tasks[2]?.status).toBe('FINISH');
    const third = book.search({ limit: 4, cursor: second.nextCursor as string });
    expect(third.tasks.map((task) => task.task_id)).toEqual(['t1', 't0']);
    expect(third.nextCursor).toBeUndefined();
    expect(third.total).toBe(12);
  });

  it('pages within a filter, and has no next page when the last match fills the page', () => {
    const book = routedTasks(6);
    book.add(outcome('t1', 'COMPLETED', 7, { agent_id: 'triage_agent' }));
    book.add(outcome('t4', 'COMPLETED', 8, { agent_id: 'triage_agent' }));
    const first = book.search({ limit: 1, statuses: ['FINISH'] });
    expect(first.tasks.map((task) => task.task_id)).toEqual(['t4']);
    const second = book.search({ limit: 1, statuses: ['FINISH'], cursor: first.nextCursor as string });
    expect(second).toMatchObject({ total: 2, tasks: [{ task_id: 't1' }] });
    expect(second.nextCursor).toBeUndefined();
  });

  it('refuses a cursor it did not give', () => {
    expect(() => new TaskBook().search({ limit: 1, cursor: 'not-a-cursor' })).toThrow(InvalidCursorError);
  });
});

describe('TaskIndex: bounds', () => {
  it('forgets the oldest-created tasks past its bound, a hundredth of it at a time, and lists past the book’s own bound', () => {
    const book = routedTasks(250, new TaskBook({ maxTasks: 10, list: { maxTasks: 200 } }));
    // 250 tasks: at the 201st, the two oldest went; at each next 2, two more.
    const all = book.search({ limit: 500 });
    expect(all.total).toBe(200);
    expect(all.tasks.at(-1)?.task_id).toBe('t50');
    expect(all.tasks[0]?.task_id).toBe('t249');
    // The book kept the timelines of its last 10 only; the list still has the rest.
    expect(book.get('t100')).toBeUndefined();
    expect(listed(book, { text: 't100' })).toEqual(['t100']);
  });

  it('merges a task the book forgot and read again into its row', () => {
    const book = routedTasks(3, new TaskBook({ maxTasks: 1 }));
    book.add(outcome('t0', 'COMPLETED', 20, { agent_id: 'triage_agent', handoff_type: 'ESCALATION' }));
    const [row] = book.search({ limit: 1, text: 't0' }).tasks;
    expect(row).toMatchObject({
      status: 'FINISH',
      created_at: at(0),
      updated_at: at(20),
      events: 2,
      handoff_types: ['TASK_TRANSFER', 'ESCALATION'],
    });
  });
});
