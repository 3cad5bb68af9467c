import { describe, expect, it } from 'vitest';
import { DEFAULT_BOOK_MAX_EVENTS, DEFAULT_BOOK_MAX_EVENTS_PER_TASK } from '@baton/task-tracking';
import { loadTrackerConfig } from './tracker-config.js';

const env = { KAFKA_BROKERS: 'localhost:9092', SCHEMA_REGISTRY_URL: 'http://localhost:8081' };

describe('loadTrackerConfig: the bounds of the task book', () => {
  it('defaults to 200,000 timeline entries and 1,000 per task', () => {
    expect(loadTrackerConfig(env)).toMatchObject({
      maxEvents: DEFAULT_BOOK_MAX_EVENTS,
      maxEventsPerTask: DEFAULT_BOOK_MAX_EVENTS_PER_TASK,
    });
    expect([DEFAULT_BOOK_MAX_EVENTS, DEFAULT_BOOK_MAX_EVENTS_PER_TASK]).toEqual([200_000, 1_000]);
  });

  it('reads BATON_TRACKER_MAX_EVENTS and BATON_TRACKER_MAX_EVENTS_PER_TASK', () => {
    expect(
      loadTrackerConfig({ ...env, BATON_TRACKER_MAX_EVENTS: '5000', BATON_TRACKER_MAX_EVENTS_PER_TASK: '50' }),
    ).toMatchObject({ maxEvents: 5_000, maxEventsPerTask: 50 });
  });

  it('refuses a bound below 1 with CONFIG_INVALID naming the variable', () => {
    expect(() => loadTrackerConfig({ ...env, BATON_TRACKER_MAX_EVENTS: '0' })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', path: '/env/BATON_TRACKER_MAX_EVENTS' }),
    );
  });
});
