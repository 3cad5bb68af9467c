import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { hasErrorCode } from '@baton/errors';
import type { ConsumedRecord, OutputRecord } from '@baton/kafka';
import { parseHandoff, type HandoffMessage } from '@baton/protocol';
import { handoffContextData } from './context-offer.js';
import type { ContextSource } from './context-takeover.js';
import { CLAIM_CHECK_HEADER, claimCheckRecord, resolveClaimCheck } from './inbox-claim-check.js';
import { wrappingStage } from './wrapping-stage.test-helper.js';

const require = createRequire(import.meta.url);
const handoff = parseHandoff(require('@baton/schemas/fixtures/seed-000-escalation-full.json') as HandoffMessage);
const bytes = Buffer.from(JSON.stringify(handoffContextData(handoff, 'x')));
const ref = {
  uri: 'kafka://t.contexts/0/3',
  sha256: 'a'.repeat(64),
  size_bytes: bytes.length,
  content_type: 'application/json',
};
const store: ContextSource = { get: async () => bytes };
/** The handoff's own inbox record (its value aside), which the claim check takes the place of. */
const handoffRecord: OutputRecord = {
  topic: 't.agent.a.inbox',
  key: handoff.metadata.task_id,
  value: Buffer.alloc(0),
  headers: { ce_id: handoff.metadata.message_id, ce_subject: handoff.metadata.task_id, 'content-type': 'avro' },
};

const consumed = (record: OutputRecord): ConsumedRecord => ({
  ...record,
  partition: 0,
  offset: '0',
  headers: record.headers ?? {},
  timestamp: '0',
});

describe('inbox claim checks', () => {
  it('carry the handoff’s CloudEvents headers and the reference, and resolve to the handoff', async () => {
    const record = claimCheckRecord(handoffRecord, ref);
    expect(record).toMatchObject({ topic: 't.agent.a.inbox', key: handoff.metadata.task_id });
    expect(record.headers).toEqual({
      ...handoffRecord.headers,
      'content-type': 'application/json',
      [CLAIM_CHECK_HEADER]: 'context_ref',
    });
    expect(await resolveClaimCheck(consumed(record), store)).toEqual(handoff);
  });

  it('resolve a sealed stored context through the stage it was sealed with', async () => {
    const stage = wrappingStage();
    const sealed: ContextSource = {
      get: async () => Buffer.from(JSON.stringify(stage.seal(handoffContextData(handoff, 'x')))),
    };
    expect(await resolveClaimCheck(consumed(claimCheckRecord(handoffRecord, ref)), sealed, stage)).toEqual(handoff);
  });

  it('leave an ordinary record to the codec', async () => {
    const record = consumed({ topic: 't', key: 'k', value: Buffer.from([0, 0, 0, 0, 1]), headers: {} });
    expect(await resolveClaimCheck(record, store)).toBeUndefined();
  });

  it('refuse a value that is not a reference as CONTEXT_REF_INVALID', async () => {
    const record = { ...claimCheckRecord(handoffRecord, ref), value: Buffer.from('nope') };
    const error = await resolveClaimCheck(consumed(record), store)?.catch((thrown: unknown) => thrown);
    expect(hasErrorCode(error, 'CONTEXT_REF_INVALID')).toBe(true);
  });
});
