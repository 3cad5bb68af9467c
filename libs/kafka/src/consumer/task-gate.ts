/**
 * Keeps each task's messages in order while one of them waits for a retry: a message of a task
 * that has a message waiting is held back until that one finishes, while other tasks go on.
 */
export class TaskGate<T> {
  private readonly held = new Map<string, T[]>();

  /** True when `taskId` has a message waiting; its later messages must be held. */
  isBlocked(taskId: string): boolean {
    return this.held.has(taskId);
  }

  /** Marks `taskId` as waiting on a retry. */
  block(taskId: string): void {
    if (!this.held.has(taskId)) this.held.set(taskId, []);
  }

  hold(taskId: string, item: T): void {
    const queue = this.held.get(taskId);
    if (!queue) throw new Error(`task ${taskId} is not blocked`);
    queue.push(item);
  }

  /** Unblocks `taskId` and hands back its held messages, oldest first. */
  release(taskId: string): T[] {
    const queue = this.held.get(taskId) ?? [];
    this.held.delete(taskId);
    return queue;
  }

  get heldCount(): number {
    let count = 0;
    for (const queue of this.held.values()) count += queue.length;
    return count;
  }

  get blockedTasks(): number {
    return this.held.size;
  }
}
