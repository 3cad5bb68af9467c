import type { RecordHeaders } from './record-headers.js';

/**
 * Headers of a record an operator replayed from a dead-letter topic. A consumer processes a
 * message it dead-lettered again only when it carries `baton.replay.id`; a plain redelivery of the
 * same message is still a duplicate.
 */
export const REPLAY_HEADERS = {
  id: 'baton.replay.id',
  actor: 'baton.replay.actor',
  from: 'baton.replay.from',
} as const;

export function isReplay(headers: RecordHeaders): boolean {
  return headers[REPLAY_HEADERS.id] !== undefined;
}
