import { describe, expect, it } from 'vitest';
import { TaskGate } from './task-gate.js';

describe('TaskGate', () => {
  it('holds a blocked task’s messages in order and leaves other tasks free', () => {
    const gate = new TaskGate<string>();
    gate.block('task-a');
    expect(gate.isBlocked('task-a')).toBe(true);
    expect(gate.isBlocked('task-b')).toBe(false);
    gate.hold('task-a', 'a2');
    gate.hold('task-a', 'a3');
    expect(gate.heldCount).toBe(2);
    expect(gate.release('task-a')).toEqual(['a2', 'a3']);
    expect(gate.isBlocked('task-a')).toBe(false);
    expect(gate.blockedTasks).toBe(0);
  });

  it('refuses to hold a message for a task that is not blocked', () => {
    expect(() => new TaskGate<string>().hold('task-x', 'x1')).toThrow('task task-x is not blocked');
  });
});
