/**
 * Who owns each task: the fold of outcome events into seed 004's TaskStatus, the owner, the
 * timeline, parents and children. Shared by services/tracker and the gateway's task view.
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
  type Transition,
} from './task-book.js';
