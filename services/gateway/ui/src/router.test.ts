import { describe, expect, it } from 'vitest';
import { deadLettersHash, parseRoute } from './router.js';

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
    expect(parseRoute('#/tasks/a%20b')).toEqual({ view: 'tasks', taskId: 'a b' });
    expect(parseRoute('#/tasks')).toEqual({ view: 'tasks', taskId: undefined });
    expect(parseRoute('#/tasks/%E0')).toEqual({ view: 'tasks', taskId: undefined });
    expect(parseRoute('#/agents')).toEqual({ view: 'agents' });
  });
});
