import { describe, expect, it } from 'vitest';
import { DEFAULT_HUMAN_REPLY, relayHumanAnswer } from './relay-human-answer.js';

describe('relayHumanAnswer', () => {
  it('passes the operator’s note on', () => {
    expect(relayHumanAnswer({ provided_info: { decision: 'APPROVED', note: ' Hello, this is the manager. ' } })).toBe(
      'A supervisor writes: Hello, this is the manager.',
    );
  });

  it('says the request was reviewed when there is no note', () => {
    expect(relayHumanAnswer({ provided_info: { decision: 'DENIED' } })).toBe(DEFAULT_HUMAN_REPLY);
    expect(relayHumanAnswer({ provided_info: { decision: 'DENIED', note: '  ' } })).toBe(DEFAULT_HUMAN_REPLY);
  });
});
