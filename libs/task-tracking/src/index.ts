/**
 * Who owns each task: the fold of the events topic (outcome events, lifecycle messages, staged
 * contexts) into each task's status, the owner, the timeline, parents and children, and each
 * negotiated handoff's state, and the searchable list of tasks it keeps beside them. Shared by services/tracker and the gateway's task view. A negotiation's
 * own fold (NegotiationFold) and what the tracker must do about it (dutyOf) are @baton/negotiation's.
 */
export {
  TaskBook,
  DEFAULT_BOOK_MAX_EVENTS,
  DEFAULT_BOOK_MAX_EVENTS_PER_TASK,
  STATUS_TABLE,
  transitionOf,
  type OutcomeEvent,
  type StatusChange,
  type TaskBookOptions,
  type TaskView,
  type TimelineEntry,
  type Transition,
} from './task-book.js';
export { holderRefusal, type TaskHolders } from './outcome-holder.js';
export { TASK_STATUSES, type TaskStatus } from './task-status.js';
export { taskIdOf } from './task-events.js';
export {
  TaskIndex,
  STUCK,
  TASK_LIST_STATUSES,
  DEFAULT_STUCK_AFTER_MS,
  DEFAULT_INDEX_MAX_TASKS,
  InvalidCursorError,
  type TaskIndexOptions,
  type TaskQuery,
  type TaskSearchResult,
  type FoldedTask,
} from './task-index.js';
export { taskListAnswer, taskListAnswerSchema, taskListQuery, taskQueryOf } from './task-list-http.js';
