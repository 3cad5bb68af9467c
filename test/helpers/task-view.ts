import type { TaskView, TimelineEntry } from '@baton/task-tracking';

/** The tracker's view of `taskId` (GET /v1/tasks/:id at `tracker`), undefined while it has none. */
export async function taskView(tracker: string, taskId: string): Promise<TaskView | undefined> {
  const response = await fetch(`${tracker}/v1/tasks/${encodeURIComponent(taskId)}`);
  if (response.status === 404) return undefined;
  if (!response.ok) throw new Error(`GET /v1/tasks/${taskId}: ${response.status}`);
  return (await response.json()) as TaskView;
}

/** A timeline as `kind` or `message_type` and who: easy to compare whole. */
export function steps(view: TaskView | undefined): string[] {
  return (view?.timeline ?? []).map((entry: TimelineEntry) => {
    if (entry.kind === 'outcome') return `${entry.outcome} @${entry.agent_id}`;
    if (entry.kind === 'staged') return `staged ${entry.context_mode} @${entry.sender_id}`;
    return `${entry.message_type} ${entry.sender_id}>${entry.receiver_id}${entry.refused ? ' REFUSED' : ''}`;
  });
}
