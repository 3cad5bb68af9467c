import type { PendingEntry, PendingTask } from './pending-task.js';

/** This instance's view of the pending topic, kept current by reading it. */
export class PendingTasks {
  private readonly entries = new Map<string, PendingEntry>();

  /** Applies a record of the pending topic: an entry, or a tombstone (null) that removes the task. */
  apply(taskId: string, entry: PendingEntry | null): void {
    if (entry === null) this.entries.delete(taskId);
    else this.entries.set(taskId, entry);
  }

  /** Oldest first. */
  list(): PendingTask[] {
    return [...this.entries.values()]
      .map((entry) => entry.task)
      .sort((a, b) => a.received_at.localeCompare(b.received_at) || a.task_id.localeCompare(b.task_id));
  }

  /** Removes and returns the task's entry, so two answers racing on this instance cannot both take it. */
  take(taskId: string): PendingEntry | undefined {
    const entry = this.entries.get(taskId);
    this.entries.delete(taskId);
    return entry;
  }

  /** Puts back an entry whose answer could not be published, unless a newer one arrived meanwhile. */
  restore(entry: PendingEntry): void {
    if (!this.entries.has(entry.task.task_id)) this.entries.set(entry.task.task_id, entry);
  }
}
