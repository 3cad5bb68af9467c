import type {
  HandoffRequestPayload,
  HandoffTerms,
  Immutable,
  LifecycleMessage,
  StagedContext,
  TaskContextTransferPayload,
} from '@baton/protocol';
import {
  transition,
  type HandoffEvent,
  type HandoffSide,
  type IllegalTransition,
  type ReceiverState,
  type SenderState,
  type StateOf,
} from './handoff-state-machine.js';

/** Why a receiver was asked: the sender's choice, or a step of the failure_handling_strategy. */
export type CandidateSource = 'target' | 'retry' | 'escalate_to' | 'fallback_action' | 'suggestion';

/** The error codes of the ErrorNotifications the tracker publishes about a negotiation. */
export const NEGOTIATION_ERRORS = {
  /** One attempt ran out of time: no accept, no context acknowledgement, or time_limit passed. */
  timeout: 'HANDOFF_TIMEOUT',
  /** Every option of the strategy is used up: the task ends FAILED. */
  failed: 'HANDOFF_FAILED',
  /** expiration_time passed before a receiver took the task: it ends EXPIRED. */
  expired: 'HANDOFF_EXPIRED',
} as const;

/** One HandoffRequest of a negotiation and what its receiver did with it. */
export interface HandoffAttempt {
  request_id: string;
  receiver: string;
  via: CandidateSource;
  requested_at: string;
  receiver_state: ReceiverState;
  accepted_at?: string;
  context_sent_at?: string;
  completed_at?: string;
  rejection?: { reason: string; suggestions: string[] };
  failure?: { code: string; message: string };
}

export const NEGOTIATION_OUTCOMES = ['OPEN', 'COMPLETED', 'FAILED', 'EXPIRED'] as const;
export type NegotiationOutcome = (typeof NEGOTIATION_OUTCOMES)[number];

/** A negotiated handoff of a task: the sender's side, which the tracker runs, and every attempt. */
export interface Negotiation {
  /** The message_id of the first HandoffRequest. */
  negotiation_id: string;
  sender_id: string;
  terms: Immutable<HandoffTerms>;
  /** How the context travels: by value in the TaskContextTransfer, or by reference. */
  context_mode: 'by-value' | 'by-reference';
  staged_at: string;
  sender_state: SenderState;
  attempts: HandoffAttempt[];
  outcome: NegotiationOutcome;
  ended_at?: string;
  /** Why it FAILED or EXPIRED. */
  reason?: string;
}

/** A message the state machine refused: recorded, never applied. */
export interface RefusedMessage {
  message_id: string;
  message_type: string;
  time: string;
  error: IllegalTransition;
}

type Moves<S extends HandoffSide> = { state: StateOf<S> } | { error: IllegalTransition<S> };

/** Runs `events` through one side's machine from `state`: all of them, or the first refusal. */
function moves<S extends HandoffSide>(side: S, state: StateOf<S>, events: HandoffEvent[]): Moves<S> {
  let current = state;
  for (const event of events) {
    const result = transition(side, current, event);
    if (!result.ok) return { error: result.error };
    current = result.state;
  }
  return { state: current };
}

/** The messages a negotiation is made of, as its fold reads them. */
export class NegotiationFold {
  readonly negotiation: Negotiation;
  /** The context to send, kept until the negotiation ends. */
  private context: Immutable<TaskContextTransferPayload> | undefined;
  /** The first request's payload, which requests to alternatives repeat. */
  private requestPayload: Immutable<HandoffRequestPayload> | undefined;

  constructor(staged: Immutable<StagedContext>) {
    this.context = staged.context;
    this.negotiation = {
      negotiation_id: staged.request_message_id,
      sender_id: staged.sender_id,
      terms: staged.terms,
      context_mode: staged.context.context_ref === undefined ? 'by-value' : 'by-reference',
      staged_at: staged.staged_at,
      sender_state: 'Idle',
      attempts: [],
      outcome: 'OPEN',
    };
  }

  /** The staged context, while a receiver may still need it. */
  get stagedContext(): Immutable<TaskContextTransferPayload> | undefined {
    return this.context;
  }

  /** The first HandoffRequest's payload, once it is folded. */
  get firstRequest(): Immutable<HandoffRequestPayload> | undefined {
    return this.requestPayload;
  }

  /** The attempt a reply answers, by its correlation_id. */
  attemptOf(requestId: string | undefined): HandoffAttempt | undefined {
    return this.negotiation.attempts.find((attempt) => attempt.request_id === requestId);
  }

  /** The attempt under way: the last one. */
  get current(): HandoffAttempt | undefined {
    return this.negotiation.attempts.at(-1);
  }

  /**
   * Applies one lifecycle message of this negotiation; returns the refusal when the state machine
   * does not allow it (the state is then left as it was).
   */
  apply(message: Immutable<LifecycleMessage>): IllegalTransition | undefined {
    switch (message.message_type) {
      case 'HandoffRequest':
        return this.request(message);
      case 'HandoffAccept':
        return this.reply(
          message,
          ['AcceptReceived'],
          ['RequestReceived', 'EvaluationStarted', 'DecisionAccept', 'AcceptSent'],
          (attempt) => {
            attempt.accepted_at = message.timestamp;
          },
        );
      case 'HandoffReject':
        return this.reply(
          message,
          ['RejectReceived'],
          ['RequestReceived', 'EvaluationStarted', 'DecisionReject', 'RejectSent'],
          (attempt) => {
            attempt.rejection = {
              reason: message.payload.reason,
              suggestions: [...(message.payload.alternative_agent_suggestions ?? [])],
            };
          },
        );
      case 'TaskContextTransfer':
        return this.reply(message, ['ContextSent'], [], (attempt) => {
          attempt.context_sent_at = message.timestamp;
        });
      case 'HandoffComplete':
        return message.payload.handoff_status === 'SUCCESS'
          ? this.reply(
              message,
              ['CompleteReceived', 'ReleaseTask'],
              ['ContextReceived', 'CompleteSent', 'StartTask'],
              (attempt) => {
                attempt.completed_at = message.timestamp;
                this.end('COMPLETED', message.timestamp);
              },
            )
          : this.reply(message, ['Error'], ['Error'], (attempt) => {
              attempt.failure = {
                code: 'HANDOFF_COMPLETE_FAILURE',
                message: `${attempt.receiver} could not take the context over`,
              };
            });
      case 'ErrorNotification':
        return this.error(message);
      default:
        return undefined;
    }
  }

  private request(message: Immutable<LifecycleMessage<'HandoffRequest'>>): IllegalTransition | undefined {
    const first = this.negotiation.attempts.length === 0;
    const sender = moves(
      'sender',
      this.negotiation.sender_state,
      first ? ['InitiateHandoff', 'RequestSent'] : ['Retry', 'RequestSent'],
    );
    if ('error' in sender) return sender.error;
    const planned = first ? { receiver: message.receiver_id, via: 'target' as const } : nextCandidate(this.negotiation);
    if (first) this.requestPayload = message.payload;
    this.negotiation.sender_state = sender.state;
    this.negotiation.attempts.push({
      request_id: message.message_id,
      receiver: message.receiver_id,
      via: planned?.receiver === message.receiver_id ? planned.via : 'suggestion',
      requested_at: message.timestamp,
      receiver_state: 'Idle',
    });
    return undefined;
  }

  /**
   * A reply to (or, for TaskContextTransfer, a message of) one attempt: moves the sender's machine
   * and the attempt's receiver machine, both or neither.
   */
  private reply(
    message: Immutable<LifecycleMessage>,
    senderEvents: HandoffEvent[],
    receiverEvents: HandoffEvent[],
    record: (attempt: HandoffAttempt) => void,
  ): IllegalTransition | undefined {
    const attempt = this.attemptOf(message.correlation_id);
    if (attempt === undefined) return undefined;
    // Only the agent asked answers for the receiver's side: another agent's accept takes nothing over.
    const [receiverEvent] = receiverEvents;
    if (receiverEvent !== undefined && message.sender_id !== attempt.receiver) {
      return {
        code: 'ILLEGAL_TRANSITION',
        side: 'receiver',
        from: attempt.receiver_state,
        event: receiverEvent,
        message: `${message.sender_id} answered a request sent to ${attempt.receiver}`,
      };
    }
    // A reply to an attempt the sender has moved on from (it timed out) is refused as it stands.
    const senderFrom = attempt === this.current ? this.negotiation.sender_state : 'HandoffFailed';
    const sender = moves('sender', senderFrom, senderEvents);
    if ('error' in sender) return sender.error;
    const receiver = moves('receiver', attempt.receiver_state, receiverEvents);
    if ('error' in receiver) return receiver.error;
    this.negotiation.sender_state = sender.state;
    attempt.receiver_state = receiver.state;
    record(attempt);
    return undefined;
  }

  private error(message: Immutable<LifecycleMessage<'ErrorNotification'>>): IllegalTransition | undefined {
    const code = message.payload.error_code;
    if (code === NEGOTIATION_ERRORS.timeout) {
      return this.reply(message, ['Timeout'], [], (attempt) => {
        attempt.failure = { code, message: message.payload.error_message };
      });
    }
    if (code === NEGOTIATION_ERRORS.failed || code === NEGOTIATION_ERRORS.expired) {
      const state = this.negotiation.sender_state;
      const sender = moves(
        'sender',
        state,
        code === NEGOTIATION_ERRORS.failed ? ['MarkTaskFailed'] : expiryEvents(state),
      );
      if ('error' in sender) return sender.error;
      this.negotiation.sender_state = sender.state;
      this.end(
        code === NEGOTIATION_ERRORS.failed ? 'FAILED' : 'EXPIRED',
        message.timestamp,
        message.payload.error_message,
      );
    }
    return undefined;
  }

  private end(outcome: NegotiationOutcome, at: string, reason?: string): void {
    this.negotiation.outcome = outcome;
    this.negotiation.ended_at = at;
    if (reason !== undefined) this.negotiation.reason = reason;
    this.context = undefined;
  }
}

/**
 * How expiry ends the sender's side from `state`: a wait it interrupts counts as a timeout, a step
 * it interrupts as an error, and the task is then marked failed. A completed handoff cannot expire.
 */
function expiryEvents(state: SenderState): HandoffEvent[] {
  switch (state) {
    case 'Idle':
      return ['InitiateHandoff', 'Error', 'MarkTaskFailed'];
    case 'AwaitingHandoffAccept':
    case 'AwaitingContextAck':
      return ['Timeout', 'MarkTaskFailed'];
    case 'HandoffRejected':
    case 'HandoffFailed':
      return ['MarkTaskFailed'];
    default:
      return ['Error', 'MarkTaskFailed'];
  }
}

/** The receivers the strategy names after the sender's target, in the order they are tried. */
function plannedCandidates(negotiation: Negotiation): { receiver: string; via: CandidateSource }[] {
  const target = negotiation.attempts[0]?.receiver;
  if (target === undefined) return [];
  const strategy = negotiation.terms.failure_handling_strategy ?? {};
  return [
    ...Array.from({ length: strategy.retry_count ?? 0 }, () => ({ receiver: target, via: 'retry' as const })),
    ...(strategy.escalate_to === undefined ? [] : [{ receiver: strategy.escalate_to, via: 'escalate_to' as const }]),
    ...(strategy.fallback_action === undefined
      ? []
      : [{ receiver: strategy.fallback_action, via: 'fallback_action' as const }]),
  ];
}

/**
 * Who is asked after the current attempt failed or was refused: retries of the target up to
 * retry_count, then escalate_to, then fallback_action, then the agents rejecting receivers
 * suggested, each once and never one already asked. Undefined: every option is used up.
 */
export function nextCandidate(negotiation: Negotiation): { receiver: string; via: CandidateSource } | undefined {
  const planned = plannedCandidates(negotiation);
  const asked = negotiation.attempts.length - 1;
  if (asked < planned.length) return planned[asked];
  const tried = new Set(negotiation.attempts.map((attempt) => attempt.receiver));
  for (const attempt of negotiation.attempts) {
    for (const suggestion of attempt.rejection?.suggestions ?? []) {
      if (!tried.has(suggestion)) return { receiver: suggestion, via: 'suggestion' };
    }
  }
  return undefined;
}
