import { describe, expect, it } from 'vitest';
import type { TimelineEvent } from '@baton/gateway-api';
import { TaskTimelines } from './task-timelines.js';

function event(outcome: string): TimelineEvent {
  return { time: '2026-11-22T10:00:00.000Z', message_id: 'm', handoff_type: 'ESCALATION', agent_id: 'a', outcome };
}

describe('TaskTimelines', () => {
  it("keeps each task's events in order, once each", () => {
    const timelines = new TaskTimelines(10);
    timelines.add('e1', 't1', event('ROUTED'));
    timelines.add('e2', 't1', event('COMPLETED'));
    timelines.add('e1', 't1', event('ROUTED'));
    expect(timelines.get('t1')?.map((entry) => entry.outcome)).toEqual(['ROUTED', 'COMPLETED']);
    expect(timelines.get('t2')).toBeUndefined();
  });

  it('forgets the task updated least recently past its bound', () => {
    const timelines = new TaskTimelines(2);
    timelines.add('e1', 't1', event('ROUTED'));
    timelines.add('e2', 't2', event('ROUTED'));
    timelines.add('e3', 't1', event('COMPLETED'));
    timelines.add('e4', 't3', event('ROUTED'));
    expect(timelines.size).toBe(2);
    expect(timelines.get('t2')).toBeUndefined();
    expect(timelines.get('t1')).toHaveLength(2);
  });
});
