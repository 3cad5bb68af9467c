import type { ErrorCode } from '@baton/errors';
import type { Immutable, LifecycleMessage } from '@baton/protocol';

/**
 * The handoff state machine of negotiated handoffs, for the two sides of one handoff of one task.
 * Each side keeps its own state and moves only by the transitions below; everything else is
 * refused, so a late, duplicated or out-of-order message cannot move a handoff backwards.
 *
 * Readings of the protocol's state table, which lists one trigger per row and sometimes reuses the trigger
 * that led into a state as the one that leads out of it:
 * - Idle → HandoffRequested on RequestReceived; HandoffRequested → AwaitingDecision on
 *   EvaluationStarted (the table's "receiving the HandoffRequest" again: here, taking it up).
 * - A receiver's decision states are left when the message is sent: HandoffAccepted on AcceptSent,
 *   HandoffRejected on RejectSent (to Idle: the task was never the receiver's), ContextTransferred
 *   on CompleteSent. HandoffCompleted is then left by what the table's remark says each side does:
 *   the receiver starts the task (StartTask → Active), the sender releases it (ReleaseTask →
 *   TaskFinished).
 * - "Idle / TaskFailed / Retry" after a rejection or failure are the sender's choice: Reset (it
 *   keeps the task), MarkTaskFailed, or Retry (a new HandoffRequest, possibly to another agent).
 *   The receiver only has Reset.
 * - "Any stage's error or timeout → HandoffFailed": Error from every state in which a handoff is
 *   under way and not yet decided (not Idle, HandoffRejected, HandoffFailed, HandoffCompleted or a
 *   terminal state); Timeout only where the table names it, the states that wait for the other side.
 */

export const HANDOFF_SIDES = ['sender', 'receiver'] as const;
export type HandoffSide = (typeof HANDOFF_SIDES)[number];

export const SENDER_STATES = [
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
] as const;
export type SenderState = (typeof SENDER_STATES)[number];

export const RECEIVER_STATES = [
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
] as const;
export type ReceiverState = (typeof RECEIVER_STATES)[number];

export type HandoffState = SenderState | ReceiverState;
export type StateOf<S extends HandoffSide> = S extends 'sender' ? SenderState : ReceiverState;

/** Decisions are imperative (InitiateHandoff, Retry), facts are past tense (RequestSent, Timeout). */
export const HANDOFF_EVENTS = [
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
] as const;
export type HandoffEvent = (typeof HANDOFF_EVENTS)[number];

/** Where a handoff ends for a side: the sender finished or failed the task, or the receiver owns it. */
export const TERMINAL_STATES = ['TaskFinished', 'TaskFailed', 'Active'] as const satisfies readonly HandoffState[];

type Table<S extends string> = Record<S, Partial<Record<HandoffEvent, S>>>;

const SENDER: Table<SenderState> = {
  Idle: { InitiateHandoff: 'HandoffInitiated' },
  HandoffInitiated: { RequestSent: 'AwaitingHandoffAccept', Error: 'HandoffFailed' },
  AwaitingHandoffAccept: {
    AcceptReceived: 'ContextPreparing',
    RejectReceived: 'HandoffRejected',
    Timeout: 'HandoffFailed',
    Error: 'HandoffFailed',
  },
  ContextPreparing: { ContextSent: 'AwaitingContextAck', Error: 'HandoffFailed' },
  AwaitingContextAck: { CompleteReceived: 'HandoffCompleted', Timeout: 'HandoffFailed', Error: 'HandoffFailed' },
  HandoffCompleted: { ReleaseTask: 'TaskFinished' },
  HandoffRejected: { Retry: 'HandoffInitiated', Reset: 'Idle', MarkTaskFailed: 'TaskFailed' },
  HandoffFailed: { Retry: 'HandoffInitiated', Reset: 'Idle', MarkTaskFailed: 'TaskFailed' },
  TaskFinished: {},
  TaskFailed: {},
};

const RECEIVER: Table<ReceiverState> = {
  Idle: { RequestReceived: 'HandoffRequested' },
  HandoffRequested: { EvaluationStarted: 'AwaitingDecision', Error: 'HandoffFailed' },
  AwaitingDecision: { DecisionAccept: 'HandoffAccepted', DecisionReject: 'HandoffRejected', Error: 'HandoffFailed' },
  HandoffAccepted: { AcceptSent: 'AwaitingContextTransfer', Error: 'HandoffFailed' },
  AwaitingContextTransfer: { ContextReceived: 'ContextTransferred', Timeout: 'HandoffFailed', Error: 'HandoffFailed' },
  ContextTransferred: { CompleteSent: 'HandoffCompleted', Error: 'HandoffFailed' },
  HandoffCompleted: { StartTask: 'Active' },
  HandoffRejected: { RejectSent: 'Idle' },
  HandoffFailed: { Reset: 'Idle' },
  Active: {},
};

const TABLES: { [S in HandoffSide]: Table<StateOf<S>> } = { sender: SENDER, receiver: RECEIVER };

export interface IllegalTransition<S extends HandoffSide = HandoffSide> {
  code: Extract<ErrorCode, 'ILLEGAL_TRANSITION'>;
  side: S;
  from: StateOf<S>;
  event: HandoffEvent;
  message: string;
}

export type TransitionResult<S extends HandoffSide = HandoffSide> =
  { ok: true; state: StateOf<S> } | { ok: false; error: IllegalTransition<S> };

/**
 * The state `side` moves to from `state` on `event`, or why it cannot. Pure and total: it never
 * throws, also for values outside the declared types (as read from storage or the wire).
 */
export function transition<S extends HandoffSide>(
  side: S,
  state: StateOf<S>,
  event: HandoffEvent,
): TransitionResult<S> {
  const table = (Object.hasOwn(TABLES, side) ? TABLES[side] : {}) as Table<StateOf<S>>;
  const row = Object.hasOwn(table, state) ? table[state] : undefined;
  const next = row !== undefined && Object.hasOwn(row, event) ? row[event] : undefined;
  if (next !== undefined) return { ok: true, state: next };
  return {
    ok: false,
    error: { code: 'ILLEGAL_TRANSITION', side, from: state, event, message: refusal(side, state, event, row) },
  };
}

/** Names the move and what would have been legal, so a log line explains a refused message. */
function refusal(side: string, state: string, event: string, row: object | undefined): string {
  if (row === undefined) return `${state} is not a state of the ${side}`;
  if (isTerminal(state as HandoffState)) return `the ${side}'s handoff has ended in ${state}; ${event} cannot follow`;
  return `the ${side} cannot take ${event} in ${state}; legal there: ${Object.keys(row).join(', ')}`;
}

export function isTerminal(state: HandoffState): boolean {
  return (TERMINAL_STATES as readonly string[]).includes(state);
}

/**
 * The event a received lifecycle message is for `side`'s machine, or undefined when the message
 * does not move it (status updates, heartbeats, warnings, messages only the other side receives).
 * A HandoffComplete with FAILURE and a CRITICAL ErrorNotification are the protocol's errors "at any
 * stage".
 */
export function receivedEvent(
  side: HandoffSide,
  message: LifecycleMessage | Immutable<LifecycleMessage>,
): HandoffEvent | undefined {
  if (message.message_type === 'ErrorNotification') {
    return message.payload.severity === 'CRITICAL' ? 'Error' : undefined;
  }
  if (side === 'receiver') {
    if (message.message_type === 'HandoffRequest') return 'RequestReceived';
    if (message.message_type === 'TaskContextTransfer') return 'ContextReceived';
    return undefined;
  }
  switch (message.message_type) {
    case 'HandoffAccept':
      return 'AcceptReceived';
    case 'HandoffReject':
      return 'RejectReceived';
    case 'HandoffComplete':
      return message.payload.handoff_status === 'SUCCESS' ? 'CompleteReceived' : 'Error';
    default:
      return undefined;
  }
}
