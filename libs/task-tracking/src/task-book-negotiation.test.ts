import { describe, expect, it } from 'vitest';
import { dutyOf, NEGOTIATION_ERRORS, type Negotiation } from '@baton/negotiation';
import {
  buildLifecycleMessage,
  nameBasedUuid,
  type HandoffTerms,
  type Immutable,
  type LifecycleMessage,
  type LifecycleMessageType,
  type LifecyclePayloadByType,
  type StagedContext,
  type TaskEvent,
} from '@baton/protocol';
import { TaskBook } from './index.js';

const T0 = Date.parse('2026-11-22T10:00:00.000Z');
const settings = { acceptTimeoutMs: 5_000, contextAckTimeoutMs: 3_000 };
let clock = T0;
let ids = 0;
/** Message ids must be UUIDs: tests name them, and this turns a name into its UUID. */
const u = (name: string): string => nameBasedUuid(name);

function lifecycle<T extends LifecycleMessageType>(
  type: T,
  from: string,
  to: string,
  payload: LifecyclePayloadByType[T],
  extra: { correlation_id?: string; id?: string; at?: number } = {},
): TaskEvent {
  ids += 1;
  const value = buildLifecycleMessage(
    type,
    {
      sender_id: from,
      receiver_id: to,
      task_id: 't',
      ...(extra.correlation_id === undefined ? {} : { correlation_id: u(extra.correlation_id) }),
      payload,
    },
    { newId: () => u(extra.id ?? `m${ids}`), now: () => new Date(extra.at ?? clock) },
  );
  return { kind: 'lifecycle', value: value as Immutable<LifecycleMessage> };
}

function staged(terms: Partial<HandoffTerms> = {}, requestId = 'r1'): TaskEvent {
  const value: StagedContext = {
    request_message_id: u(requestId),
    task_id: 't',
    sender_id: 'triage',
    staged_at: new Date(clock).toISOString(),
    context: { context_data: { task_description: 'router reboot loop' } },
    terms: { desired_agent_type: 'NetworkExpert', reason: 'lacks the skill', ...terms },
  };
  return { kind: 'staged', value };
}

const request = (to: string, id: string, correlation?: string) =>
  lifecycle(
    'HandoffRequest',
    'triage',
    to,
    {
      reason: 'lacks the skill',
      desired_agent_type: 'NetworkExpert',
      priority: 'HIGH',
      initial_context_summary: 'loop',
    },
    { id, ...(correlation === undefined ? {} : { correlation_id: correlation }) },
  );
const accept = (from: string, requestId: string) =>
  lifecycle('HandoffAccept', from, 'triage', { estimated_handoff_time: 5 }, { correlation_id: requestId });
const reject = (from: string, requestId: string, suggestions: string[] = []) =>
  lifecycle(
    'HandoffReject',
    from,
    'triage',
    { reason: 'capability mismatch', alternative_agent_suggestions: suggestions },
    { correlation_id: requestId },
  );
const transfer = (to: string, requestId: string) =>
  lifecycle(
    'TaskContextTransfer',
    'triage',
    to,
    { context_data: { task_description: 'router reboot loop' } },
    { correlation_id: requestId, id: `${requestId}.context` },
  );
const complete = (from: string, requestId: string, status: 'SUCCESS' | 'FAILURE' = 'SUCCESS') =>
  lifecycle('HandoffComplete', from, 'triage', { handoff_status: status }, { correlation_id: requestId });
const notice = (code: string, correlation: string, severity: 'WARNING' | 'CRITICAL' = 'WARNING') =>
  lifecycle(
    'ErrorNotification',
    'tracker',
    'triage',
    { error_code: code, error_message: `${code} happened`, severity, origin_agent_id: 'tracker' },
    { correlation_id: correlation },
  );

function fold(events: TaskEvent[], book = new TaskBook()): TaskBook {
  for (const event of events) book.apply(event);
  return book;
}

function negotiation(book: TaskBook): Negotiation {
  const view = book.get('t');
  if (view?.negotiations[0] === undefined) throw new Error('no negotiation');
  return view.negotiations[0];
}

describe('a negotiated handoff in the TaskBook', () => {
  it('runs request, accept, context, complete: the receiver owns the task, each step in the timeline', () => {
    clock = T0;
    const book = fold([staged(), request('expert', 'r1')]);
    expect(book.get('t')).toMatchObject({ status: 'WAITING', owner: 'triage' });
    expect(negotiation(book).sender_state).toBe('AwaitingHandoffAccept');
    fold([accept('expert', 'r1')], book);
    expect(negotiation(book).sender_state).toBe('ContextPreparing');
    expect(dutyOf(negotiation(book), settings, clock)).toMatchObject({ due: { kind: 'send-context' } });
    fold([transfer('expert', 'r1'), complete('expert', 'r1')], book);
    const view = book.get('t');
    expect(view).toMatchObject({ status: 'EXECUTING', owner: 'expert', refused: [] });
    expect(view?.timeline.map((entry) => (entry.kind === 'lifecycle' ? entry.message_type : entry.kind))).toEqual([
      'staged',
      'HandoffRequest',
      'HandoffAccept',
      'TaskContextTransfer',
      'HandoffComplete',
    ]);
    expect(negotiation(book)).toMatchObject({
      outcome: 'COMPLETED',
      sender_state: 'TaskFinished',
      context_mode: 'by-value',
      attempts: [{ receiver: 'expert', via: 'target', receiver_state: 'Active' }],
    });
    expect(dutyOf(negotiation(book), settings, clock + 60_000)).toEqual({ dueAt: undefined });
  });

  it('asks a rejecting receiver’s suggestion next, which accepts', () => {
    const book = fold([staged(), request('sales', 'r1'), reject('sales', 'r1', ['sales', 'expert'])]);
    expect(negotiation(book).sender_state).toBe('HandoffRejected');
    // A suggestion already asked (the rejecting agent itself) is passed over.
    expect(dutyOf(negotiation(book), settings, clock)).toEqual({
      due: { kind: 'request', receiver: 'expert', via: 'suggestion' },
    });
    fold(
      [request('expert', 'r2', 'r1'), accept('expert', 'r2'), transfer('expert', 'r2'), complete('expert', 'r2')],
      book,
    );
    expect(
      negotiation(book).attempts.map((attempt) => [attempt.receiver, attempt.via, attempt.receiver_state]),
    ).toEqual([
      ['sales', 'target', 'Idle'],
      ['expert', 'suggestion', 'Active'],
    ]);
    expect(book.get('t')).toMatchObject({ status: 'EXECUTING', owner: 'expert' });
  });

  it('times out a silent receiver and follows the strategy: retries, escalate_to, fallback_action, suggestions', () => {
    clock = T0;
    const terms = { failure_handling_strategy: { retry_count: 1, escalate_to: 'level3', fallback_action: 'human' } };
    const book = fold([staged(terms), request('expert', 'r1')]);
    expect(dutyOf(negotiation(book), settings, T0 + 4_999)).toEqual({ dueAt: T0 + 5_000 });
    expect(dutyOf(negotiation(book), settings, T0 + 5_000)).toMatchObject({
      due: { kind: 'time-out', reason: 'no answer from expert within 5000 ms' },
    });
    const steps: string[] = [];
    let requestId = 'r1';
    for (const [index, receiver] of ['expert', 'level3', 'human'].entries()) {
      fold([notice(NEGOTIATION_ERRORS.timeout, requestId)], book);
      const duty = dutyOf(negotiation(book), settings, clock);
      if (!('due' in duty) || duty.due.kind !== 'request')
        throw new Error(`expected a request, got ${JSON.stringify(duty)}`);
      steps.push(`${duty.due.receiver}:${duty.due.via}`);
      expect(duty.due.receiver).toBe(receiver);
      requestId = `r${index + 2}`;
      fold([request(duty.due.receiver, requestId, 'r1')], book);
    }
    expect(steps).toEqual(['expert:retry', 'level3:escalate_to', 'human:fallback_action']);
    fold([reject('human', requestId, ['duty_manager'])], book);
    expect(dutyOf(negotiation(book), settings, clock)).toEqual({
      due: { kind: 'request', receiver: 'duty_manager', via: 'suggestion' },
    });
    fold([request('duty_manager', 'r5', 'r1'), notice(NEGOTIATION_ERRORS.timeout, 'r5')], book);
    const last = dutyOf(negotiation(book), settings, clock);
    expect(last).toMatchObject({ due: { kind: 'fail' } });
    expect('due' in last && last.due.kind === 'fail' ? last.due.reason : '').toContain(
      'human (fallback_action): capability mismatch',
    );
    fold([notice(NEGOTIATION_ERRORS.failed, 'r1', 'CRITICAL')], book);
    expect(book.get('t')).toMatchObject({ status: 'FAILED', owner: 'triage' });
    expect(negotiation(book)).toMatchObject({ outcome: 'FAILED', sender_state: 'TaskFailed' });
  });

  it('bounds the context acknowledgement and each attempt’s time_limit', () => {
    clock = T0;
    const book = fold([staged({ time_limit: 'PT4S' }), request('expert', 'r1')]);
    // time_limit (4 s) comes before the accept timeout (5 s).
    expect(dutyOf(negotiation(book), settings, T0)).toEqual({ dueAt: T0 + 4_000 });
    fold([accept('expert', 'r1')], book);
    clock = T0 + 2_000;
    fold([transfer('expert', 'r1')], book);
    expect(dutyOf(negotiation(book), settings, clock)).toEqual({ dueAt: T0 + 4_000 });
    expect(dutyOf(negotiation(book), settings, T0 + 4_000)).toMatchObject({
      due: { kind: 'time-out', reason: 'time_limit PT4S passed before expert completed the handoff' },
    });
    const noLimit = fold([staged({}, 'q1'), request('expert', 'q1'), accept('expert', 'q1'), transfer('expert', 'q1')]);
    expect(dutyOf(negotiation(noLimit), settings, clock)).toEqual({ dueAt: clock + 3_000 });
  });

  it('expires: nothing more is asked, the task ends EXPIRED and stays so', () => {
    clock = T0;
    const expiration_time = new Date(T0 + 10_000).toISOString();
    const book = fold([staged({ expiration_time }), request('expert', 'r1')]);
    expect(dutyOf(negotiation(book), { acceptTimeoutMs: 60_000, contextAckTimeoutMs: 1 }, T0)).toEqual({
      dueAt: T0 + 10_000,
    });
    expect(dutyOf(negotiation(book), settings, T0 + 10_000)).toMatchObject({ due: { kind: 'expire' } });
    fold([notice(NEGOTIATION_ERRORS.expired, 'r1', 'CRITICAL')], book);
    expect(book.get('t')).toMatchObject({ status: 'EXPIRED', owner: null });
    expect(book.negotiationCounts()).toEqual({ OPEN: 0, COMPLETED: 0, FAILED: 0, EXPIRED: 1 });
    expect(negotiation(book)).toMatchObject({ outcome: 'EXPIRED', sender_state: 'TaskFailed' });
    book.add({
      event_id: 'late',
      time: new Date(T0 + 20_000).toISOString(),
      task_id: 't',
      message_id: 'x',
      agent_id: 'expert',
      handoff_type: 'TASK_TRANSFER',
      outcome: 'COMPLETED',
    });
    expect(book.get('t')?.status).toBe('EXPIRED');
  });

  it('records a late accept after a timeout as refused, and never applies it', () => {
    const book = fold([
      staged(),
      request('expert', 'r1'),
      notice(NEGOTIATION_ERRORS.timeout, 'r1'),
      accept('expert', 'r1'),
    ]);
    const view = book.get('t');
    expect(view?.refused).toEqual([
      expect.objectContaining({
        message_type: 'HandoffAccept',
        error: expect.objectContaining({
          code: 'ILLEGAL_TRANSITION',
          side: 'sender',
          from: 'HandoffFailed',
          event: 'AcceptReceived',
        }),
      }),
    ]);
    expect(view?.timeline.at(-1)).toMatchObject({
      kind: 'lifecycle',
      message_type: 'HandoffAccept',
      refused: { code: 'ILLEGAL_TRANSITION' },
    });
    expect(negotiation(book).sender_state).toBe('HandoffFailed');
  });

  it('refuses an answer from an agent the request was not sent to', () => {
    const book = fold([staged(), request('expert', 'r1'), accept('intruder', 'r1')]);
    expect(book.get('t')?.refused).toEqual([
      expect.objectContaining({
        message_type: 'HandoffAccept',
        error: {
          code: 'ILLEGAL_TRANSITION',
          side: 'receiver',
          from: 'Idle',
          event: 'RequestReceived',
          message: 'intruder answered a request sent to expert',
        },
      }),
    ]);
    expect(negotiation(book).sender_state).toBe('AwaitingHandoffAccept');
    fold([accept('expert', 'r1')], book);
    expect(negotiation(book).sender_state).toBe('ContextPreparing');
  });

  it('folds each message once: a copy another tracker wrote under the same id changes nothing', () => {
    const events = [staged(), request('expert', 'r1'), accept('expert', 'r1'), transfer('expert', 'r1')];
    const book = fold([...events, events[3] as TaskEvent, staged()]);
    expect(book.get('t')?.timeline).toHaveLength(4);
    expect(book.get('t')?.refused).toEqual([]);
    expect(negotiation(book).sender_state).toBe('AwaitingContextAck');
  });

  it('treats a FAILURE completion as an error of that attempt', () => {
    const book = fold([
      staged(),
      request('expert', 'r1'),
      accept('expert', 'r1'),
      transfer('expert', 'r1'),
      complete('expert', 'r1', 'FAILURE'),
    ]);
    expect(negotiation(book)).toMatchObject({
      sender_state: 'HandoffFailed',
      attempts: [{ receiver_state: 'HandoffFailed', failure: { code: 'HANDOFF_COMPLETE_FAILURE' } }],
    });
    expect(dutyOf(negotiation(book), settings, clock)).toMatchObject({ due: { kind: 'fail' } });
  });

  it('keeps a task whose negotiation is open past the book’s bounds, and forgets it once the negotiation ended', () => {
    const routed = (taskId: string, n: number): TaskEvent => ({
      kind: 'outcome',
      value: {
        event_id: u(`e-${taskId}-${n}`),
        time: new Date(clock + n).toISOString(),
        task_id: taskId,
        message_id: u(`m-${taskId}-${n}`),
        agent_id: 'router',
        handoff_type: 'TASK_TRANSFER',
        outcome: 'ROUTED',
        target: 'x',
      },
    });
    const book = fold([staged(), request('expert', 'r1')], new TaskBook({ maxTasks: 2, maxEvents: 3 }));
    fold([routed('a', 1), routed('b', 2), routed('b', 3)], book);
    // Over both bounds, the task updated least recently but negotiating stays: `a` went instead.
    expect(book.get('t')?.timeline).toHaveLength(2);
    expect(book.get('a')).toBeUndefined();
    expect(book.get('b')?.timeline).toHaveLength(2);
    fold([accept('expert', 'r1'), transfer('expert', 'r1'), complete('expert', 'r1')], book);
    expect(negotiation(book).outcome).toBe('COMPLETED');
    expect(book.get('b')).toBeUndefined();
    fold([routed('c', 4)], book);
    expect(book.get('t')).toBeUndefined();
    expect(book.get('c')?.timeline).toHaveLength(1);
    expect(book.size).toBe(1);
  });
});
