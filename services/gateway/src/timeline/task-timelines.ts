import type { TaskAnswer, TimelineEvent } from '@baton/gateway-api';
import type { TaskView } from '@baton/task-tracking';
import type { HandoffOutcome, Immutable } from '@baton/protocol';

export function timelineEvent(event: Immutable<HandoffOutcome>): TimelineEvent {
  return {
    time: event.time,
    message_id: event.message_id,
    handoff_type: event.handoff_type,
    ...(event.issue_category === undefined ? {} : { issue_category: event.issue_category }),
    ...(event.sender_id === undefined ? {} : { sender: event.sender_id }),
    ...(event.recipient_id === undefined ? {} : { receiver: event.recipient_id }),
    agent_id: event.agent_id,
    outcome: event.outcome,
    ...(event.target === undefined ? {} : { target: event.target }),
    ...(event.detail === undefined ? {} : { detail: event.detail }),
    ...(event.error_code === undefined ? {} : { error_code: event.error_code }),
  };
}

/**
 * The gateway's answer for a task, from the TaskBook of @baton/task-tracking (the fold the tracker
 * uses too): its status and owner, parents and children, and its events as timeline steps.
 */
export function taskAnswer(task: TaskView): TaskAnswer {
  return {
    task_id: task.task_id,
    status: task.status,
    owner: task.owner,
    parent_task_ids: task.parent_task_ids,
    children: task.children,
    events: task.timeline.map(timelineEvent),
  };
}
