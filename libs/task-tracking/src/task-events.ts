import type { TaskEvent } from '@baton/protocol';

/** The task a record of the events topic belongs to. */
export function taskIdOf(event: TaskEvent): string {
  if (event.kind === 'lifecycle') return event.value.task_id ?? '';
  return event.value.task_id;
}

/** The id a record is deduplicated by: the event's, the message's, or the staged request's. */
export function entryIdOf(event: TaskEvent): string {
  if (event.kind === 'outcome') return event.value.event_id;
  if (event.kind === 'lifecycle') return event.value.message_id;
  return `${event.value.request_message_id}.staged`;
}

/** When the record says it happened. */
export function timeOf(event: TaskEvent): string {
  if (event.kind === 'outcome') return event.value.time;
  if (event.kind === 'lifecycle') return event.value.timestamp;
  return event.value.staged_at;
}
