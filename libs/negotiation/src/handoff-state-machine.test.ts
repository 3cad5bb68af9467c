import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { LifecycleMessage } from '@baton/protocol';
import {
  HANDOFF_EVENTS,
  RECEIVER_STATES,
  SENDER_STATES,
  isTerminal,
  receivedEvent,
  transition,
  type HandoffEvent,
  type HandoffSide,
  type HandoffState,
  type StateOf,
} from './handoff-state-machine.js';

// Written from the protocol's state table (see the reading notes in handoff-state-machine.ts), not
// from the implementation: every legal move with its next state. Every other pair is illegal.
const SENDER_STATES_EXPECTED = [
  'Idle',
  'HandoffInitiated',
  'AwaitingHandoffAccept',
  'ContextPreparing',
  'AwaitingContextAck',
  'HandoffCompleted',
  'HandoffRejected',
  'HandoffFailed',
  'TaskFinished',
  'TaskFailed',
];
const RECEIVER_STATES_EXPECTED = [
  'Idle',
  'HandoffRequested',
  'AwaitingDecision',
  'HandoffAccepted',
  'AwaitingContextTransfer',
  'ContextTransferred',
  'HandoffCompleted',
  'HandoffRejected',
  'HandoffFailed',
  'Active',
];
const EVENTS_EXPECTED = [
  'InitiateHandoff',
  'RequestSent',
  'RequestReceived',
  'EvaluationStarted',
  'DecisionAccept',
  'DecisionReject',
  'AcceptSent',
  'AcceptReceived',
  'RejectSent',
  'RejectReceived',
  'ContextSent',
  'ContextReceived',
  'CompleteSent',
  'CompleteReceived',
  'StartTask',
  'ReleaseTask',
  'Timeout',
  'Error',
  'Retry',
  'Reset',
  'MarkTaskFailed',
];

const SENDER_TABLE: [from: string, event: string, to: string][] = [
  ['Idle', 'InitiateHandoff', 'HandoffInitiated'],
  ['HandoffInitiated', 'RequestSent', 'AwaitingHandoffAccept'],
  ['HandoffInitiated', 'Error', 'HandoffFailed'],
  ['AwaitingHandoffAccept', 'AcceptReceived', 'ContextPreparing'],
  ['AwaitingHandoffAccept', 'RejectReceived', 'HandoffRejected'],
  ['AwaitingHandoffAccept', 'Timeout', 'HandoffFailed'],
  ['AwaitingHandoffAccept', 'Error', 'HandoffFailed'],
  ['ContextPreparing', 'ContextSent', 'AwaitingContextAck'],
  ['ContextPreparing', 'Error', 'HandoffFailed'],
  ['AwaitingContextAck', 'CompleteReceived', 'HandoffCompleted'],
  ['AwaitingContextAck', 'Timeout', 'HandoffFailed'],
  ['AwaitingContextAck', 'Error', 'HandoffFailed'],
  ['HandoffCompleted', 'ReleaseTask', 'TaskFinished'],
  ['HandoffRejected', 'Reset', 'Idle'],
  ['HandoffRejected', 'MarkTaskFailed', 'TaskFailed'],
  ['HandoffRejected', 'Retry', 'HandoffInitiated'],
  ['HandoffFailed', 'Reset', 'Idle'],
  ['HandoffFailed', 'MarkTaskFailed', 'TaskFailed'],
  ['HandoffFailed', 'Retry', 'HandoffInitiated'],
];

const RECEIVER_TABLE: [from: string, event: string, to: string][] = [
  ['Idle', 'RequestReceived', 'HandoffRequested'],
  ['HandoffRequested', 'EvaluationStarted', 'AwaitingDecision'],
  ['HandoffRequested', 'Error', 'HandoffFailed'],
  ['AwaitingDecision', 'DecisionAccept', 'HandoffAccepted'],
  ['AwaitingDecision', 'DecisionReject', 'HandoffRejected'],
  ['AwaitingDecision', 'Error', 'HandoffFailed'],
  ['HandoffAccepted', 'AcceptSent', 'AwaitingContextTransfer'],
  ['HandoffAccepted', 'Error', 'HandoffFailed'],
  ['AwaitingContextTransfer', 'ContextReceived', 'ContextTransferred'],
  ['AwaitingContextTransfer', 'Timeout', 'HandoffFailed'],
  ['AwaitingContextTransfer', 'Error', 'HandoffFailed'],
  ['ContextTransferred', 'CompleteSent', 'HandoffCompleted'],
  ['ContextTransferred', 'Error', 'HandoffFailed'],
  ['HandoffCompleted', 'StartTask', 'Active'],
  ['HandoffRejected', 'RejectSent', 'Idle'],
  ['HandoffFailed', 'Reset', 'Idle'],
];

const SIDES = {
  sender: { states: SENDER_STATES_EXPECTED, table: SENDER_TABLE },
  receiver: { states: RECEIVER_STATES_EXPECTED, table: RECEIVER_TABLE },
} as const;

/** Every (side, state, event) with the table's next state, or undefined where the move is illegal. */
function matrix(side: HandoffSide): [string, string, string | undefined][] {
  const { states, table } = SIDES[side];
  return states.flatMap((state) =>
    EVENTS_EXPECTED.map((event): [string, string, string | undefined] => [
      state,
      event,
      table.find(([from, on]) => from === state && on === event)?.[2],
    ]),
  );
}

/** Applies events in order; the states passed through, or the first refusal. */
function run<S extends HandoffSide>(side: S, events: HandoffEvent[], from = 'Idle' as StateOf<S>): string[] {
  const states: string[] = [];
  let state = from;
  for (const event of events) {
    const result = transition(side, state, event);
    if (!result.ok) return [...states, `refused: ${result.error.message}`];
    state = result.state;
    states.push(state);
  }
  return states;
}

describe('the handoff state machine', () => {
  it('has exactly the states and events of the table', () => {
    expect([...SENDER_STATES]).toEqual(SENDER_STATES_EXPECTED);
    expect([...RECEIVER_STATES]).toEqual(RECEIVER_STATES_EXPECTED);
    expect([...HANDOFF_EVENTS]).toEqual(EVENTS_EXPECTED);
  });

  describe.each(['sender', 'receiver'] as const)('the %s side, every state × every event', (side) => {
    const cases = matrix(side);

    it('covers the whole product', () => {
      expect(cases).toHaveLength(SIDES[side].states.length * EVENTS_EXPECTED.length);
    });

    it.each(cases.filter(([, , to]) => to !== undefined))('%s --%s--> %s', (from, event, to) => {
      expect(transition(side, from as never, event as HandoffEvent)).toEqual({ ok: true, state: to });
    });

    it.each(cases.filter(([, , to]) => to === undefined))('%s --%s--> refused', (from, event) => {
      const result = transition(side, from as never, event as HandoffEvent);
      expect(result).toEqual({
        ok: false,
        error: { code: 'ILLEGAL_TRANSITION', side, from, event, message: expect.any(String) },
      });
      if (!result.ok) expect(result.error.message).toContain(event);
    });
  });

  it('refuses a state of the other side, and values outside the types, without throwing', () => {
    expect(transition('sender', 'Active' as never, 'StartTask')).toMatchObject({
      ok: false,
      error: { code: 'ILLEGAL_TRANSITION', from: 'Active', message: 'Active is not a state of the sender' },
    });
    expect(transition('receiver', '__proto__' as never, 'Reset')).toMatchObject({ ok: false });
    expect(transition('receiver', 'Idle', 'toString' as never)).toMatchObject({ ok: false });
    expect(transition('bystander' as never, 'Idle' as never, 'RequestReceived')).toMatchObject({ ok: false });
  });

  it('says what is legal where a move is refused', () => {
    expect(transition('sender', 'AwaitingHandoffAccept', 'ContextSent')).toMatchObject({
      error: {
        message:
          'the sender cannot take ContextSent in AwaitingHandoffAccept; legal there: AcceptReceived, RejectReceived, Timeout, Error',
      },
    });
    expect(transition('receiver', 'Active', 'Error')).toMatchObject({
      error: { message: "the receiver's handoff has ended in Active; Error cannot follow" },
    });
  });

  it('knows its terminal states', () => {
    const all: HandoffState[] = [...SENDER_STATES, ...RECEIVER_STATES];
    expect(all.filter(isTerminal).sort()).toEqual(['Active', 'TaskFailed', 'TaskFinished']);
  });
});

describe('paths through a handoff', () => {
  it('the happy path: the sender finishes, the receiver owns the task', () => {
    expect(
      run('sender', [
        'InitiateHandoff',
        'RequestSent',
        'AcceptReceived',
        'ContextSent',
        'CompleteReceived',
        'ReleaseTask',
      ]),
    ).toEqual([
      'HandoffInitiated',
      'AwaitingHandoffAccept',
      'ContextPreparing',
      'AwaitingContextAck',
      'HandoffCompleted',
      'TaskFinished',
    ]);
    expect(
      run('receiver', [
        'RequestReceived',
        'EvaluationStarted',
        'DecisionAccept',
        'AcceptSent',
        'ContextReceived',
        'CompleteSent',
        'StartTask',
      ]),
    ).toEqual([
      'HandoffRequested',
      'AwaitingDecision',
      'HandoffAccepted',
      'AwaitingContextTransfer',
      'ContextTransferred',
      'HandoffCompleted',
      'Active',
    ]);
  });

  it('a rejection: the receiver returns to Idle, the sender retries, keeps or fails the task', () => {
    expect(run('receiver', ['RequestReceived', 'EvaluationStarted', 'DecisionReject', 'RejectSent'])).toEqual([
      'HandoffRequested',
      'AwaitingDecision',
      'HandoffRejected',
      'Idle',
    ]);
    const rejected = ['InitiateHandoff', 'RequestSent', 'RejectReceived'] as const;
    expect(run('sender', [...rejected, 'Retry', 'RequestSent'])).toEqual([
      'HandoffInitiated',
      'AwaitingHandoffAccept',
      'HandoffRejected',
      'HandoffInitiated',
      'AwaitingHandoffAccept',
    ]);
    expect(run('sender', [...rejected, 'Reset']).at(-1)).toBe('Idle');
    expect(run('sender', [...rejected, 'MarkTaskFailed']).at(-1)).toBe('TaskFailed');
  });

  it('timeouts: no answer to the request, no context, no acknowledgement', () => {
    expect(run('sender', ['InitiateHandoff', 'RequestSent', 'Timeout', 'MarkTaskFailed'])).toEqual([
      'HandoffInitiated',
      'AwaitingHandoffAccept',
      'HandoffFailed',
      'TaskFailed',
    ]);
    expect(
      run('receiver', ['RequestReceived', 'EvaluationStarted', 'DecisionAccept', 'AcceptSent', 'Timeout', 'Reset']),
    ).toEqual([
      'HandoffRequested',
      'AwaitingDecision',
      'HandoffAccepted',
      'AwaitingContextTransfer',
      'HandoffFailed',
      'Idle',
    ]);
    expect(
      run('sender', ['InitiateHandoff', 'RequestSent', 'AcceptReceived', 'ContextSent', 'Timeout', 'Retry']),
    ).toEqual([
      'HandoffInitiated',
      'AwaitingHandoffAccept',
      'ContextPreparing',
      'AwaitingContextAck',
      'HandoffFailed',
      'HandoffInitiated',
    ]);
  });

  it('refuses a late accept after the sender timed out', () => {
    expect(run('sender', ['InitiateHandoff', 'RequestSent', 'Timeout', 'AcceptReceived'])).toEqual([
      'HandoffInitiated',
      'AwaitingHandoffAccept',
      'HandoffFailed',
      'refused: the sender cannot take AcceptReceived in HandoffFailed; legal there: Retry, Reset, MarkTaskFailed',
    ]);
  });
});

describe('receivedEvent', () => {
  const require = createRequire(import.meta.url);
  const example = (name: string): LifecycleMessage =>
    structuredClone(require(`@baton/schemas/fixtures/lifecycle/${name}.example.json`)) as LifecycleMessage;

  it('maps each example to the event it is for each side', () => {
    const names = [
      'handoff-request',
      'handoff-accept',
      'handoff-reject',
      'task-context-transfer',
      'task-context-transfer-by-reference',
      'handoff-complete',
      'task-status-update',
      'error-notification',
      'heartbeat',
    ];
    expect(
      names.map((name) => [name, receivedEvent('sender', example(name)), receivedEvent('receiver', example(name))]),
    ).toEqual([
      ['handoff-request', undefined, 'RequestReceived'],
      ['handoff-accept', 'AcceptReceived', undefined],
      ['handoff-reject', 'RejectReceived', undefined],
      ['task-context-transfer', undefined, 'ContextReceived'],
      ['task-context-transfer-by-reference', undefined, 'ContextReceived'],
      ['handoff-complete', 'CompleteReceived', undefined],
      ['task-status-update', undefined, undefined],
      ['error-notification', undefined, undefined],
      ['heartbeat', undefined, undefined],
    ]);
  });

  it('reads a failed HandoffComplete and a critical ErrorNotification as Error', () => {
    const complete = example('handoff-complete') as LifecycleMessage<'HandoffComplete'>;
    complete.payload.handoff_status = 'FAILURE';
    expect(receivedEvent('sender', complete)).toBe('Error');
    const error = example('error-notification') as LifecycleMessage<'ErrorNotification'>;
    error.payload.severity = 'CRITICAL';
    expect(receivedEvent('sender', error)).toBe('Error');
    expect(receivedEvent('receiver', error)).toBe('Error');
  });
});
