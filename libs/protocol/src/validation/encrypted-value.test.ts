import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ENCRYPTED_VALUE_PREFIX, isEncryptedValue, valueAtPointer } from './encrypted-value.js';
import { validateHandoff } from './validate-handoff.js';
import { validateLifecycleMessage } from './validate-lifecycle.js';

const require = createRequire(import.meta.url);
const seed = (): Record<string, any> =>
  structuredClone(require('@baton/schemas/fixtures/seed-000-escalation-full.json')) as Record<string, any>;
const CIPHERTEXT = `${ENCRYPTED_VALUE_PREFIX}pii-2026-11:d3JhcHBlZA:Y2lwaGVy`;

describe('encrypted values in validation', () => {
  it('recognises the encrypted form and nothing else', () => {
    expect(isEncryptedValue(CIPHERTEXT)).toBe(true);
    expect(isEncryptedValue('John Doe')).toBe(false);
    expect(isEncryptedValue({ name: CIPHERTEXT })).toBe(false);
  });

  it('reads a JSON Pointer with escaped tokens', () => {
    expect(valueAtPointer({ 'a/b': [{ '~c': 1 }] }, '/a~1b/0/~0c')).toBe(1);
    expect(valueAtPointer({ a: 1 }, '/a/b')).toBeUndefined();
  });

  it('accepts a handoff whose personal fields are ciphertext, whatever their clear type or length', () => {
    const message = seed();
    message.payload.data.customer_info.name = CIPHERTEXT;
    message.payload.data.customer_info.contact_number = CIPHERTEXT;
    message.context.historical_data_summary = CIPHERTEXT;
    message.context.user_interaction_history[0].content = CIPHERTEXT;
    // A field whose clear text is a number travels as a string too.
    message.payload.data.technical_details.logs_attached = CIPHERTEXT;
    expect(validateHandoff(message)).toEqual([]);
  });

  it('still refuses everything else, and an enumeration even when it looks encrypted', () => {
    const message = seed();
    message.payload.data.customer_info.name = CIPHERTEXT;
    message.metadata.priority = CIPHERTEXT;
    message.metadata.timestamp = 'yesterday';
    delete message.payload.data.customer_info.user_id;
    expect(validateHandoff(message)).toEqual([
      { code: 'FIELD_FORMAT', path: '/metadata/timestamp', message: 'must be a valid date-time' },
      { code: 'FIELD_ENUM', path: '/metadata/priority', message: 'must be one of LOW, MEDIUM, HIGH, CRITICAL' },
      {
        code: 'FIELD_REQUIRED',
        path: '/payload/data/customer_info/user_id',
        message: "required field 'user_id' is missing",
      },
    ]);
  });

  it('accepts an encrypted summary in a lifecycle message and still checks its payload', () => {
    const request = {
      message_id: '3f1c2a9e-8b7d-4c6e-9a5b-1d2e3f4a5b6c',
      sender_id: 'triage_agent',
      receiver_id: 'sales_agent',
      timestamp: '2026-11-24T10:00:00.000Z',
      protocol_version: '1.0.0',
      message_type: 'HandoffRequest',
      task_id: 'task-1',
      payload: { reason: 'skill', desired_agent_type: 'SalesAgent', priority: 'HIGH', initial_context_summary: 7 },
    };
    expect(validateLifecycleMessage(request)).toEqual([
      { code: 'FIELD_TYPE', path: '/payload/initial_context_summary', message: 'must be of type string' },
    ]);
    expect(
      validateLifecycleMessage({ ...request, payload: { ...request.payload, initial_context_summary: CIPHERTEXT } }),
    ).toEqual([]);
  });
});
