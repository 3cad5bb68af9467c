import { isoDurationMs } from '@baton/protocol';
import { nextCandidate, type CandidateSource, type HandoffAttempt, type Negotiation } from './negotiation-fold.js';

/** The tracker's deadlines for one attempt. */
export interface NegotiationSettings {
  /** How long a receiver may take to accept or reject a HandoffRequest. */
  acceptTimeoutMs: number;
  /** How long a receiver may take to acknowledge the context (HandoffComplete) once it is sent. */
  contextAckTimeoutMs: number;
}

/** What the tracker must do for an open negotiation, on the sender's behalf. */
export type Duty =
  | { kind: 'send-context'; attempt: HandoffAttempt }
  | { kind: 'time-out'; attempt: HandoffAttempt; reason: string }
  | { kind: 'request'; receiver: string; via: CandidateSource }
  | { kind: 'fail'; reason: string }
  | { kind: 'expire'; reason: string };

/** A duty due now, or the time the next one falls due (none when the negotiation waits on nobody). */
export type DutyCheck = { due: Duty } | { dueAt: number | undefined };

const at = (iso: string): number => Date.parse(iso);

/**
 * What is due for `negotiation` at `now`: a pure function of the folded state, so every tracker
 * reading the same topic reaches the same decisions. The order: expiry first (the task is not
 * processed further), then the step the sender's state calls for, then its deadlines.
 */
export function dutyOf(negotiation: Negotiation, settings: NegotiationSettings, now: number): DutyCheck {
  if (negotiation.outcome !== 'OPEN') return { dueAt: undefined };
  const expiresAt = negotiation.terms.expiration_time === undefined ? undefined : at(negotiation.terms.expiration_time);
  if (expiresAt !== undefined && expiresAt <= now) {
    return { due: { kind: 'expire', reason: `expiration_time ${negotiation.terms.expiration_time} passed` } };
  }
  const step = stepOf(negotiation, settings, now);
  if ('due' in step) return step;
  const times = [step.dueAt, expiresAt].filter((time): time is number => time !== undefined);
  return { dueAt: times.length === 0 ? undefined : Math.min(...times) };
}

function stepOf(negotiation: Negotiation, settings: NegotiationSettings, now: number): DutyCheck {
  const attempt = negotiation.attempts.at(-1);
  if (attempt === undefined) return { dueAt: undefined };
  switch (negotiation.sender_state) {
    case 'ContextPreparing':
      return { due: { kind: 'send-context', attempt } };
    case 'AwaitingHandoffAccept':
      return deadline(attempt, now, [
        [
          at(attempt.requested_at) + settings.acceptTimeoutMs,
          `no answer from ${attempt.receiver} within ${settings.acceptTimeoutMs} ms`,
        ],
        timeLimit(negotiation, attempt),
      ]);
    case 'AwaitingContextAck':
      return deadline(attempt, now, [
        [
          at(attempt.context_sent_at ?? attempt.requested_at) + settings.contextAckTimeoutMs,
          `${attempt.receiver} did not acknowledge the context within ${settings.contextAckTimeoutMs} ms`,
        ],
        timeLimit(negotiation, attempt),
      ]);
    case 'HandoffRejected':
    case 'HandoffFailed': {
      const next = nextCandidate(negotiation);
      if (next !== undefined) return { due: { kind: 'request', ...next } };
      return { due: { kind: 'fail', reason: exhausted(negotiation) } };
    }
    default:
      return { dueAt: undefined };
  }
}

/** constraints.time_limit bounds each attempt from its request to its HandoffComplete. */
function timeLimit(negotiation: Negotiation, attempt: HandoffAttempt): [number, string] | undefined {
  const limit = negotiation.terms.time_limit;
  const ms = limit === undefined ? undefined : isoDurationMs(limit);
  if (ms === undefined) return undefined;
  return [at(attempt.requested_at) + ms, `time_limit ${limit} passed before ${attempt.receiver} completed the handoff`];
}

function deadline(attempt: HandoffAttempt, now: number, deadlines: ([number, string] | undefined)[]): DutyCheck {
  const [first] = deadlines
    .filter((entry): entry is [number, string] => entry !== undefined)
    .sort((a, b) => a[0] - b[0]);
  if (first === undefined) return { dueAt: undefined };
  if (first[0] <= now) return { due: { kind: 'time-out', attempt, reason: first[1] } };
  return { dueAt: first[0] };
}

/** Names every receiver asked and why each one did not take the task. */
function exhausted(negotiation: Negotiation): string {
  const asked = negotiation.attempts.map((attempt) => {
    const why = attempt.rejection?.reason ?? attempt.failure?.message ?? 'no answer';
    return `${attempt.receiver} (${attempt.via}): ${why}`;
  });
  return `every option of the failure_handling_strategy is used up; asked ${asked.join('; ')}`;
}
