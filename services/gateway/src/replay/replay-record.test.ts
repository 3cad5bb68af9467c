import { describe, expect, it } from 'vitest';
import { DLQ_HEADERS, REPLAY_HEADERS } from '@baton/kafka';
import { originalHeaders } from './replay-record.js';

describe('originalHeaders', () => {
  it("takes off the dead-lettering's headers and an earlier replay's mark, keeping the message's own", () => {
    const headers = {
      ce_id: 'm-1',
      ce_type: 'ESCALATION',
      traceparent: '00-abc-def-01',
      [DLQ_HEADERS.code]: 'NO_ROUTE',
      [DLQ_HEADERS.topic]: 'baton.handoffs.inbound',
      [DLQ_HEADERS.message]: 'no route',
      [REPLAY_HEADERS.id]: 'r-1',
      [REPLAY_HEADERS.actor]: 'ops',
    };
    expect(originalHeaders(headers)).toEqual({ ce_id: 'm-1', ce_type: 'ESCALATION', traceparent: '00-abc-def-01' });
  });
});
