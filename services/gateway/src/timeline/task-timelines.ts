import type { OutcomeStep, TaskAnswer, TimelineEvent, UserReply } from '@baton/gateway-api';
import type { OutcomeEvent, TaskView, TimelineEntry } from '@baton/task-tracking';

export function outcomeStep(event: OutcomeEvent): OutcomeStep {
  return {
    kind: 'outcome',
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

/** One entry of the fold's timeline as the API shows it: `sender` and `receiver` named as for outcomes. */
export function timelineEvent(entry: TimelineEntry): TimelineEvent {
  switch (entry.kind) {
    case 'outcome':
      return outcomeStep(entry);
    case 'lifecycle':
      return {
        kind: 'lifecycle',
        time: entry.time,
        message_id: entry.message_id,
        message_type: entry.message_type,
        sender: entry.sender_id,
        receiver: entry.receiver_id,
        ...(entry.correlation_id === undefined ? {} : { correlation_id: entry.correlation_id }),
        ...(entry.detail === undefined ? {} : { detail: entry.detail }),
        ...(entry.refused === undefined ? {} : { refused: entry.refused }),
      };
    case 'staged':
      return {
        kind: 'staged',
        time: entry.time,
        message_id: entry.message_id,
        sender: entry.sender_id,
        context_mode: entry.context_mode,
        detail: entry.detail,
      };
  }
}

/**
 * The gateway's answer for a task, from the TaskBook of @baton/task-tracking (the fold the tracker
 * uses too): its status and owner, parents and children, its events as timeline steps, its
 * negotiated handoffs, the lifecycle messages the state machine refused, and the agents' replies to
 * the user. The negotiations are the fold's own copies; the route's response schema decides which
 * of their fields are written.
 */
export function taskAnswer(task: TaskView, replies: readonly UserReply[]): TaskAnswer {
  return {
    task_id: task.task_id,
    status: task.status,
    owner: task.owner,
    parent_task_ids: task.parent_task_ids,
    children: task.children,
    events: task.timeline.map(timelineEvent),
    negotiations: task.negotiations,
    refused: task.refused,
    replies: [...replies],
  };
}
