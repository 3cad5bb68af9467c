import { describe, expect, it } from 'vitest';
import { queuedHandoffs } from './agent-negotiation.js';

describe('queuedHandoffs', () => {
  it('counts a handoff and its commit marker as one, and the last marker behind the position as none', () => {
    expect(queuedHandoffs([])).toBe(0);
    // Idle partitions: never written, or processed up to the last commit marker.
    expect(
      queuedHandoffs([
        { partition: 0, lag: 0 },
        { partition: 1, lag: 1 },
      ]),
    ).toBe(0);
    // Never consumed: one handoff and its marker; after processing: two more waiting.
    expect(
      queuedHandoffs([
        { partition: 0, lag: 2 },
        { partition: 1, lag: 5 },
      ]),
    ).toBe(3);
  });
});
