import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parseHandoff, type HandoffMessage } from '@baton/protocol';
import { pendingEntryOf, type PendingEntry } from './pending-task.js';
import { PendingTasks } from './pending-tasks.js';

const require = createRequire(import.meta.url);
const fixture = require('@baton/schemas/fixtures/approval-request.example.json') as HandoffMessage;

function entry(taskId: string, second: number): PendingEntry {
  const handoff = parseHandoff({ ...fixture, metadata: { ...fixture.metadata, task_id: taskId } });
  return pendingEntryOf(handoff, new Date(Date.UTC(2026, 10, 21, 9, 0, second)));
}

describe('PendingTasks', () => {
  it('lists entries oldest first, a newer entry of a task replacing the older', () => {
    const tasks = new PendingTasks();
    tasks.apply('b', entry('b', 2));
    tasks.apply('a', entry('a', 3));
    tasks.apply('c', entry('c', 1));
    tasks.apply('c', entry('c', 4));
    expect(tasks.list().map(({ task_id, received_at }) => [task_id, received_at])).toEqual([
      ['b', '2026-11-21T09:00:02.000Z'],
      ['a', '2026-11-21T09:00:03.000Z'],
      ['c', '2026-11-21T09:00:04.000Z'],
    ]);
  });

  it('removes a task on a tombstone', () => {
    const tasks = new PendingTasks();
    tasks.apply('a', entry('a', 1));
    tasks.apply('a', null);
    tasks.apply('unknown', null);
    expect(tasks.list()).toEqual([]);
  });

  it('gives a task to one taker only', () => {
    const tasks = new PendingTasks();
    const a = entry('a', 1);
    tasks.apply('a', a);
    expect(tasks.take('a')).toBe(a);
    expect(tasks.take('a')).toBeUndefined();
    expect(tasks.list()).toEqual([]);
  });

  it('restores an entry unless a newer one arrived meanwhile', () => {
    const tasks = new PendingTasks();
    const older = entry('a', 1);
    tasks.apply('a', older);
    tasks.take('a');
    tasks.restore(older);
    expect(tasks.list()).toEqual([older.task]);
    tasks.take('a');
    const newer = entry('a', 2);
    tasks.apply('a', newer);
    tasks.restore(older);
    expect(tasks.list()).toEqual([newer.task]);
  });
});
