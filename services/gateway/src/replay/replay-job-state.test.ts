import { describe, expect, it } from 'vitest';
import { REPLAY_JOB_STATES } from '@baton/gateway-api';
import { nextJobState, REPLAY_JOB_COMMANDS } from './replay-job-state.js';

describe('replay job states', () => {
  it('runs only after planning, pauses and resumes, and stops from any live state', () => {
    expect(nextJobState('planned', 'start')).toBe('running');
    expect(nextJobState('running', 'pause')).toBe('paused');
    expect(nextJobState('paused', 'resume')).toBe('running');
    expect(nextJobState('planned', 'stop')).toBe('stopped');
    expect(nextJobState('running', 'stop')).toBe('stopped');
    expect(nextJobState('paused', 'stop')).toBe('stopped');
  });

  it('refuses every other move with REPLAY_STATE_CONFLICT', () => {
    const allowed = new Set([
      'planned:start',
      'running:pause',
      'paused:resume',
      'planned:stop',
      'running:stop',
      'paused:stop',
    ]);
    for (const state of REPLAY_JOB_STATES) {
      for (const command of REPLAY_JOB_COMMANDS) {
        if (allowed.has(`${state}:${command}`)) continue;
        expect(() => nextJobState(state, command)).toThrowError(
          expect.objectContaining({ code: 'REPLAY_STATE_CONFLICT' }),
        );
      }
    }
  });
});
