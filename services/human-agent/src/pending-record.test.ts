import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { HandoffValidationError, parseHandoff, type HandoffMessage } from '@baton/protocol';
import { parsePendingEntry, pendingRecord, pendingTopic } from './pending-record.js';
import { pendingEntryOf } from './pending-task.js';

const require = createRequire(import.meta.url);
const approval = parseHandoff(require('@baton/schemas/fixtures/approval-request.example.json') as HandoffMessage);
const entry = pendingEntryOf(approval, new Date(Date.UTC(2026, 10, 21, 9, 0, 1)));

describe('the pending topic', () => {
  it('is named after the human agent, under the prefix', () => {
    expect(pendingTopic('baton')).toBe('baton.agent.human_agent.pending');
  });

  it('keys an entry by task_id and reads it back whole', () => {
    const record = pendingRecord('t', entry);
    expect(record.topic).toBe('t');
    expect(record.key).toBe('task-refund-003');
    expect(record.headers).toEqual({ 'content-type': 'application/json' });
    expect(JSON.parse(record.value.toString())).toEqual({ received_at: '2026-11-21T09:00:01.000Z', handoff: approval });
    expect(parsePendingEntry(record.value)).toEqual(entry);
  });

  it('refuses values that are not entries', () => {
    expect(() => parsePendingEntry(Buffer.from('not json'))).toThrow(SyntaxError);
    expect(() => parsePendingEntry(Buffer.from(JSON.stringify({ handoff: approval })))).toThrow(
      'pending entry has no valid received_at',
    );
    const broken = { received_at: '2026-11-21T09:00:01.000Z', handoff: { ...approval, payload: {} } };
    expect(() => parsePendingEntry(Buffer.from(JSON.stringify(broken)))).toThrow(HandoffValidationError);
  });
});
