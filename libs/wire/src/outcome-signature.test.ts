import { describe, expect, it } from 'vitest';
import { parseHandoffOutcome } from '@baton/protocol';
import { HANDOFF_OUTCOME_AVRO_SCHEMA, parseAvroSchema, type AvroRecordSchema } from './index.js';

const outcome = {
  event_id: '6f1d7b1e-5c1a-4f7e-9d3b-2a4c6e8f0a1b',
  time: '2026-12-07T12:00:00.000Z',
  task_id: 'task-1',
  message_id: '0b3f7a52-8d0e-4c1a-9f6b-5e2d4c3b1a09',
  agent_id: 'billing_agent',
  handoff_type: 'TASK_TRANSFER',
  outcome: 'COMPLETED',
};
const signed = { ...outcome, signature: `ed25519:billing-2026-12:${'A'.repeat(86)}` };

/** The outcome event's schema as it was before `signature`. */
function unsignedSchema(): AvroRecordSchema {
  const copy = structuredClone(HANDOFF_OUTCOME_AVRO_SCHEMA);
  return { ...copy, fields: copy.fields.filter((field) => (field as { name: string }).name !== 'signature') };
}

describe('the outcome event’s signature', () => {
  it('is an optional field the JSON Schema checks', () => {
    expect(parseHandoffOutcome(signed)).toEqual(signed);
    expect(() => parseHandoffOutcome({ ...outcome, signature: '' })).toThrowError(
      expect.objectContaining({ code: 'VALIDATION_FAILED', path: '/signature' }),
    );
  });

  it('round-trips through Avro; events written before it read without one, and older readers skip it', () => {
    const type = parseAvroSchema(HANDOFF_OUTCOME_AVRO_SCHEMA);
    expect(type.fromBuffer(type.toBuffer(signed))).toStrictEqual(signed);
    const before = parseAvroSchema(unsignedSchema());
    expect(type.fromBuffer(before.toBuffer(outcome), type.createResolver(before))).toStrictEqual(outcome);
    expect(before.fromBuffer(type.toBuffer(signed), before.createResolver(type))).toStrictEqual(outcome);
  });
});
