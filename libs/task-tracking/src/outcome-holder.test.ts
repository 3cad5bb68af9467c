import type { BatonError } from '@baton/errors';
import type { HandoffOutcome, HandoffOutcomeKind } from '@baton/protocol';
import { describe, expect, it } from 'vitest';
import { TaskBook, type OutcomeEvent } from './index.js';

let sequence = 0;

function event(agent: string, outcome: HandoffOutcomeKind, extra: Partial<HandoffOutcome> = {}): OutcomeEvent {
  sequence += 1;
  return {
    event_id: `e${sequence}`,
    time: new Date(Date.UTC(2026, 11, 7, 10, 0, sequence)).toISOString(),
    task_id: 't',
    message_id: 'm1',
    agent_id: agent,
    handoff_type: 'TASK_TRANSFER',
    outcome,
    ...extra,
  };
}

const routed = (target: string, messageId = 'm1') => event('router', 'ROUTED', { target, message_id: messageId });

/** A book that checks holders, and the refusals it reported as [event_id, code, path]. */
function checkedBook(): { book: TaskBook; refused: [string, string, string | undefined][] } {
  const refused: [string, string, string | undefined][] = [];
  const book = new TaskBook({
    holderCheck: {
      onRefused: (refusedEvent: OutcomeEvent, error: BatonError) =>
        refused.push([refusedEvent.event_id, error.code, error.path]),
    },
  });
  return { book, refused };
}

describe('TaskBook holder check', () => {
  it("folds an agent's outcome for the message the router routed to it", () => {
    const { book, refused } = checkedBook();
    expect(book.add(routed('billing_agent'))).toBe(true);
    expect(book.add(event('billing_agent', 'COMPLETED'))).toBe(true);
    expect(book.get('t')).toMatchObject({ status: 'FINISH', owner: null });
    expect(refused).toEqual([]);
  });

  it('refuses a COMPLETED by an agent the task was never given, and leaves status and owner as they were', () => {
    const { book, refused } = checkedBook();
    book.add(routed('billing_agent'));
    const forged = event('intruder_agent', 'COMPLETED');
    expect(book.add(forged)).toBe(false);
    expect(refused).toEqual([[forged.event_id, 'OUTCOME_NOT_HOLDER', '/agent_id']]);
    expect(book.get('t')).toMatchObject({ status: 'EXECUTING', owner: 'billing_agent', counts: { events: 1 } });
  });

  it('refuses an outcome for a task with no event yet', () => {
    const { book, refused } = checkedBook();
    expect(book.add(event('intruder_agent', 'COMPLETED'))).toBe(false);
    expect(book.get('t')).toBeUndefined();
    expect(refused.map(([, code]) => code)).toEqual(['OUTCOME_NOT_HOLDER']);
  });

  it('lets the router report only ROUTED and DEAD_LETTERED', () => {
    const { book, refused } = checkedBook();
    expect(book.add(event('router', 'DEAD_LETTERED', { error_code: 'NO_ROUTE' }))).toBe(true);
    const finished = event('router', 'COMPLETED');
    expect(book.add(finished)).toBe(false);
    expect(refused).toEqual([[finished.event_id, 'OUTCOME_NOT_HOLDER', '/outcome']]);
  });

  it('lets each agent a message went to report on it once; a handoff moves the task on for good', () => {
    const { book, refused } = checkedBook();
    book.add(routed('planner_agent,audit_agent'));
    expect(book.add(event('audit_agent', 'PROCESSED'))).toBe(true);
    expect(book.add(event('planner_agent', 'HANDED_OFF', { target: 'worker_agent' }))).toBe(true);
    book.add(routed('worker_agent', 'm2'));
    // The planner handed the task on: another report of its message, or of the worker's, is refused.
    const late = [event('planner_agent', 'COMPLETED'), event('planner_agent', 'COMPLETED', { message_id: 'm2' })];
    for (const each of late) expect(book.add(each)).toBe(false);
    expect(book.add(event('worker_agent', 'COMPLETED', { message_id: 'm2' }))).toBe(true);
    expect(refused.map(([id]) => id)).toEqual(late.map((each) => each.event_id));
    expect(book.get('t')).toMatchObject({ status: 'FINISH', owner: null });
  });

  it('lets an agent that dead-lettered a message report on its replays, as it is or under a new message id', () => {
    const { book, refused } = checkedBook();
    book.add(routed('billing_agent'));
    expect(book.add(event('billing_agent', 'DEAD_LETTERED', { error_code: 'MODEL_UNAVAILABLE' }))).toBe(true);
    expect(book.add(event('billing_agent', 'COMPLETED'))).toBe(true);
    expect(book.add(event('billing_agent', 'COMPLETED', { message_id: 'm1-replayed' }))).toBe(true);
    // Another agent's report of the replayed message is still refused: the router never gave it the task.
    expect(book.add(event('audit_agent', 'COMPLETED', { message_id: 'm1-replayed' }))).toBe(false);
    expect(refused.map(([, code]) => code)).toEqual(['OUTCOME_NOT_HOLDER']);
  });

  it("refuses an agent's report of a message the router dead-lettered: replayed into its inbox, it was never routed", () => {
    const { book, refused } = checkedBook();
    book.add(event('router', 'DEAD_LETTERED', { error_code: 'NOT_AUTHORIZED' }));
    expect(book.add(event('billing_agent', 'COMPLETED', { message_id: 'm1-replayed' }))).toBe(false);
    expect(refused.map(([, code]) => code)).toEqual(['OUTCOME_NOT_HOLDER']);
    expect(book.get('t')).toMatchObject({ status: 'BREAK', owner: null });
  });

  it('lets the agent holding the task report on a message the router did not route (a negotiated handoff)', () => {
    const { book, refused } = checkedBook();
    book.add(routed('sales_agent'));
    book.add(event('sales_agent', 'HANDED_OFF', { target: 'refunds_agent' }));
    expect(book.add(event('refunds_agent', 'COMPLETED', { message_id: 'm-taken-over' }))).toBe(true);
    expect(refused).toEqual([]);
  });

  it('folds every event as it comes without the check', () => {
    const book = new TaskBook();
    expect(book.add(event('intruder_agent', 'COMPLETED'))).toBe(true);
    expect(book.get('t')?.status).toBe('FINISH');
  });
});
