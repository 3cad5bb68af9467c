/**
 * Who owns each task: the fold of the events topic (outcome events, lifecycle messages, staged
 * contexts) into each task's status, the owner, the timeline, parents and children, and each
 * negotiated handoff's state. Shared by services/tracker and the gateway's task view. A negotiation's
 * own fold (NegotiationFold) and what the tracker must do about it (dutyOf) are @baton/negotiation's.
 */
export {
  TaskBook,
  DEFAULT_BOOK_MAX_EVENTS,
  DEFAULT_BOOK_MAX_EVENTS_PER_TASK,
  STATUS_TABLE,
  taskIdOf,
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
export { holderRefusal, type TaskHolders } from './outcome-holder.js';
