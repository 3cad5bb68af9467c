import { integerSetting, loadServiceConfig, type ServiceConfig } from '@baton/runtime';
import type { NegotiationSettings } from '@baton/negotiation';
import { DEFAULT_BOOK_MAX_EVENTS, DEFAULT_BOOK_MAX_EVENTS_PER_TASK } from '@baton/task-tracking';

export interface TrackerConfig extends ServiceConfig {
  /** How long the start may take to read the events topic to its end before the process gives up. */
  catchUpTimeoutMs: number;
  /** The deadlines of negotiated handoffs the tracker enforces. */
  negotiation: NegotiationSettings;
  /** Timeline entries kept over all tasks (about 500 bytes of heap each); the least recently updated tasks go first. */
  maxEvents: number;
  /** Timeline entries kept per task, the newest. */
  maxEventsPerTask: number;
}

type Env = Record<string, string | undefined>;

export function loadTrackerConfig(env: Env = process.env): Readonly<TrackerConfig> {
  return Object.freeze({
    ...loadServiceConfig('tracker', env),
    catchUpTimeoutMs: integerSetting(env, 'BATON_TRACKER_CATCH_UP_TIMEOUT_MS', 600_000),
    negotiation: {
      acceptTimeoutMs: integerSetting(env, 'BATON_HANDOFF_ACCEPT_TIMEOUT_MS', 30_000),
      contextAckTimeoutMs: integerSetting(env, 'BATON_HANDOFF_CONTEXT_ACK_TIMEOUT_MS', 30_000),
    },
    maxEvents: integerSetting(env, 'BATON_TRACKER_MAX_EVENTS', DEFAULT_BOOK_MAX_EVENTS),
    maxEventsPerTask: integerSetting(env, 'BATON_TRACKER_MAX_EVENTS_PER_TASK', DEFAULT_BOOK_MAX_EVENTS_PER_TASK),
  });
}
