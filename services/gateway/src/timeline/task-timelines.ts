import type { TimelineEvent } from '@baton/gateway-api';
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
 * Each task's events in the order the events topic holds them (one partition per task, so that
 * is publication order). Bounded: past `maxTasks` the task updated least recently is forgotten.
 */
export class TaskTimelines {
  private readonly tasks = new Map<string, { eventIds: Set<string>; events: TimelineEvent[] }>();

  constructor(private readonly maxTasks: number) {}

  /** Adds an event once: after kafkajs restarts a reader, it reads the topic from the beginning again. */
  add(eventId: string, taskId: string, event: TimelineEvent): void {
    const task = this.tasks.get(taskId) ?? { eventIds: new Set<string>(), events: [] };
    if (task.eventIds.has(eventId)) return;
    task.eventIds.add(eventId);
    task.events.push(event);
    // Re-inserted, so the map's first entry is always the task updated least recently.
    this.tasks.delete(taskId);
    this.tasks.set(taskId, task);
    if (this.tasks.size > this.maxTasks) {
      const oldest = this.tasks.keys().next().value;
      if (oldest !== undefined) this.tasks.delete(oldest);
    }
  }

  get(taskId: string): readonly TimelineEvent[] | undefined {
    return this.tasks.get(taskId)?.events;
  }

  get size(): number {
    return this.tasks.size;
  }
}
