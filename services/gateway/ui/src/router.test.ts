import { describe, expect, it } from 'vitest';
import { deadLettersHash, parseRoute, tasksHash } from './router.js';

describe('parseRoute', () => {
  it('opens on the overview, whatever the hash does not name', () => {
    for (const hash of ['', '#', '#/', '#/nothing', '#/overview'])
      expect(parseRoute(hash)).toEqual({ view: 'overview' });
  });

  it('reads the dead-letter filters and the opened record back from the hash it made', () => {
    const filters = new URLSearchParams({ topic: 'baton.agent.a/b.dlq', error_code: 'RETRIES_EXHAUSTED' });
    const route = parseRoute(deadLettersHash(filters, { topic: 'baton.agent.a/b.dlq', id: '0-12' }));
    expect(route.view).toBe('dead-letters');
    if (route.view !== 'dead-letters') return;
    expect(route.open).toEqual({ topic: 'baton.agent.a/b.dlq', id: '0-12' });
    expect(Object.fromEntries(route.filters)).toEqual(Object.fromEntries(filters));
  });

  it('reads a task id, encoded or not, and a malformed one as none', () => {
    const none = new URLSearchParams();
    expect(parseRoute('#/tasks/a%20b')).toEqual({ view: 'tasks', taskId: 'a b', filters: none });
    expect(parseRoute('#/tasks')).toEqual({ view: 'tasks', taskId: undefined, filters: none });
    expect(parseRoute('#/tasks/%E0')).toEqual({ view: 'tasks', taskId: undefined, filters: none });
    expect(parseRoute('#/agents')).toEqual({ view: 'agents' });
  });

  it('reads the task list filters back from the hash it made', () => {
    const filters = new URLSearchParams({ status: 'STUCK', agent: 'refunds_agent', q: 'a&b' });
    const route = parseRoute(tasksHash(filters));
    expect(route).toEqual({ view: 'tasks', taskId: undefined, filters });
    expect(tasksHash(new URLSearchParams())).toBe('#/tasks');
  });
});
