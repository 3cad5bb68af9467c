import { BatonError } from '@baton/errors';
import type { ReplayJobState } from '@baton/gateway-api';

export const REPLAY_JOB_COMMANDS = ['start', 'pause', 'resume', 'stop'] as const;
export type ReplayJobCommand = (typeof REPLAY_JOB_COMMANDS)[number];

/**
 * A bulk replay is planned (its dry run) before it runs, so an operator always sees what would
 * go where first. Stopped and completed are final.
 */
const MOVES: Record<ReplayJobCommand, Partial<Record<ReplayJobState, ReplayJobState>>> = {
  start: { planned: 'running' },
  pause: { running: 'paused' },
  resume: { paused: 'running' },
  stop: { planned: 'stopped', running: 'stopped', paused: 'stopped' },
};

export function nextJobState(state: ReplayJobState, command: ReplayJobCommand): ReplayJobState {
  const next = MOVES[command][state];
  if (next === undefined) {
    throw new BatonError('REPLAY_STATE_CONFLICT', `a ${state} replay job cannot ${command}`, { path: '/command' });
  }
  return next;
}
