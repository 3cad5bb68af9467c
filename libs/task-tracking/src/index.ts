/**
 * Who owns each task: the fold of the events topic (outcome events, lifecycle messages, staged
 * contexts) into seed 004's TaskStatus, the owner, the timeline, parents and children, and each
 * negotiated handoff's state; and what the tracker must do about an open negotiation. Shared by
 * services/tracker and the gateway's task view.
 */
export {
  TaskBook,
  STATUS_TABLE,
  TASK_STATUSES,
  transitionOf,
  type OutcomeEvent,
  type StatusChange,
  type TaskBookOptions,
  type TaskStatus,
  type TaskSummary,
  type TaskView,
  type TimelineEntry,
  type Transition,
} from './task-book.js';
export {
  NEGOTIATION_ERRORS,
  NEGOTIATION_OUTCOMES,
  NegotiationFold,
  nextCandidate,
  type CandidateSource,
  type HandoffAttempt,
  type Negotiation,
  type NegotiationOutcome,
  type RefusedMessage,
} from './negotiation.js';
export { dutyOf, type Duty, type NegotiationSettings } from './negotiation-duty.js';
