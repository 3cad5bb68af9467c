/**
 * Who follows which task: a stream watches its task, and the readers tell the feed when a task got
 * a new step or reply. A notification carries nothing: each stream reads what it has not sent yet,
 * so a step folded while a stream was catching up is neither lost nor sent twice.
 */
export class TaskFeed {
  private readonly watchers = new Map<string, Set<() => void>>();

  /** Calls `changed` after each change of the task, until the returned function is called. */
  watch(taskId: string, changed: () => void): () => void {
    let watchers = this.watchers.get(taskId);
    if (watchers === undefined) this.watchers.set(taskId, (watchers = new Set()));
    watchers.add(changed);
    return () => {
      watchers.delete(changed);
      if (watchers.size === 0) this.watchers.delete(taskId);
    };
  }

  changed(taskId: string): void {
    for (const changed of this.watchers.get(taskId) ?? []) changed();
  }

  /** Tasks being watched now, for the gateway's metrics and tests. */
  get watchedTasks(): number {
    return this.watchers.size;
  }
}
