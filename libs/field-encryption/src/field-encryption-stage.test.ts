import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { isBatonError, type BatonError } from '@baton/errors';
import { ENCRYPTED_VALUE_PREFIX, isEncryptedValue, validateHandoff } from '@baton/protocol';
import { decryptPersonalData, fieldEncryptionStage } from './field-encryption-stage.js';
import { mapStringsWhere } from './json-walk.js';
import { PersonalFields } from './personal-fields.js';
import { ringOf, ringWith } from './test-key-rings.test-helper.js';

const require = createRequire(import.meta.url);
const seed = (): Record<string, any> =>
  structuredClone(require('@baton/schemas/fixtures/seed-000-escalation-full.json')) as Record<string, any>;
/** Every clear personal value of the seed example. */
const SEED_PERSONAL_VALUES = [
  'John Doe',
  '+1-555-123-4567',
  "User 'John Doe' reported",
  'My internet keeps dropping every hour.',
  'Intermittent disconnections',
];

function caught(run: () => unknown): BatonError {
  try {
    run();
  } catch (error) {
    if (isBatonError(error)) return error;
    throw error;
  }
  throw new Error('expected a BatonError');
}

function encryptedPointers(message: unknown): string[] {
  const pointers: string[] = [];
  mapStringsWhere(message, isEncryptedValue, (text, pointer) => {
    pointers.push(pointer);
    return text;
  });
  return pointers;
}

describe('the field encryption stage', () => {
  it('encrypts exactly the personal fields of a handoff, and opens them back to the message sent', () => {
    const stage = fieldEncryptionStage('handoff', ringOf('pii-2026-11').source);
    const message = seed();
    const sealed = stage.seal(message) as Record<string, any>;
    expect(encryptedPointers(sealed).sort()).toEqual([
      '/context/historical_data_summary',
      '/context/user_interaction_history/0/content',
      '/context/user_interaction_history/1/content',
      '/payload/data/customer_info/contact_number',
      '/payload/data/customer_info/name',
      '/payload/data/technical_details/symptoms',
    ]);
    const text = JSON.stringify(sealed);
    for (const value of SEED_PERSONAL_VALUES) expect(text).not.toContain(value);
    // user_id identifies the customer to systems: it stays clear, like everything not personal.
    expect(sealed.payload.data.customer_info.user_id).toBe(message.payload.data.customer_info.user_id);
    expect(sealed.metadata).toBe(message.metadata);
    expect(sealed.instructions).toBe(message.instructions);
    expect(sealed.context.previous_actions).toBe(message.context.previous_actions);
    expect(message).toEqual(seed());
    expect(stage.open(sealed)).toEqual(seed());
  });

  it('writes self-contained values under the primary key id: one data key per message, copied fields still open', () => {
    const { source } = ringOf('pii-2026-11');
    const sealed = fieldEncryptionStage('handoff', source).seal(seed()) as Record<string, any>;
    const name = sealed.payload.data.customer_info.name as string;
    const phone = sealed.payload.data.customer_info.contact_number as string;
    expect(name.startsWith(`${ENCRYPTED_VALUE_PREFIX}pii-2026-11:`)).toBe(true);
    const header = (value: string) => value.split(':').slice(0, 5).join(':');
    expect(header(name)).toBe(header(phone));
    expect(name).not.toBe(phone);
    const other = fieldEncryptionStage('handoff', source).seal(seed()) as Record<string, any>;
    expect(header(other.payload.data.customer_info.name)).not.toBe(header(name));
    expect(decryptPersonalData({ note: { copied: name } }, source)).toEqual({ note: { copied: 'John Doe' } });
  });

  it('keeps the JSON type of a value: a customer_info member that is an object or a number comes back as it was', () => {
    const stage = fieldEncryptionStage('handoff', ringOf('k1').source);
    const message = seed();
    message.payload.data.customer_info.address = { city: 'Springfield', zip: 12345 };
    const sealed = stage.seal(message) as Record<string, any>;
    expect(isEncryptedValue(sealed.payload.data.customer_info.address)).toBe(true);
    expect(stage.open(sealed)).toEqual(message);
  });

  it('leaves a message without personal fields, or with its fields already encrypted, as it is', () => {
    const stage = fieldEncryptionStage('handoff', ringOf('k1').source);
    const plain = seed();
    delete plain.context.historical_data_summary;
    delete plain.context.user_interaction_history;
    plain.payload = { handoff_type: 'STATUS_UPDATE', data: { status: 'IN_PROGRESS', details: 'working' } };
    expect(stage.seal(plain)).toBe(plain);
    expect(stage.open(plain)).toBe(plain);
    const sealed = stage.seal(seed());
    expect(stage.seal(sealed)).toBe(sealed);
    // An agent without the key ring forwards what it got: a second sealer must not wrap it again.
    expect(fieldEncryptionStage('handoff', ringOf('other').source).seal(sealed)).toBe(sealed);
  });

  it('gives a sealed handoff to validators without the key ring as valid', () => {
    const sealed = fieldEncryptionStage('handoff', ringOf('k1').source).seal(seed());
    expect(validateHandoff(sealed)).toEqual([]);
  });

  it('encrypts a lifecycle message’s summary and the handoff a negotiated context carries', () => {
    const stage = fieldEncryptionStage('lifecycle', ringOf('k1').source);
    const transfer = {
      message_type: 'TaskContextTransfer',
      payload: {
        context_data: {
          schema_version: 'baton.handoff.v1',
          task_description: "User 'John Doe' reported",
          handoff: seed(),
        },
      },
    };
    expect(encryptedPointers(stage.seal(transfer)).sort()).toEqual([
      '/payload/context_data/handoff/context/historical_data_summary',
      '/payload/context_data/handoff/context/user_interaction_history/0/content',
      '/payload/context_data/handoff/context/user_interaction_history/1/content',
      '/payload/context_data/handoff/payload/data/customer_info/contact_number',
      '/payload/context_data/handoff/payload/data/customer_info/name',
      '/payload/context_data/handoff/payload/data/technical_details/symptoms',
      '/payload/context_data/task_description',
    ]);
    const request = {
      message_type: 'HandoffRequest',
      payload: { reason: 'skill', initial_context_summary: 'John Doe' },
    };
    expect(encryptedPointers(stage.seal(request))).toEqual(['/payload/initial_context_summary']);
    const staged = { context: { context_data: { task_description: 'John Doe', handoff: seed() } }, terms: {} };
    expect(encryptedPointers(fieldEncryptionStage('staged', ringOf('k1').source).seal(staged))).toHaveLength(7);
  });

  it('refuses a tampered value, a tampered wrapped key or a relabelled key id with PERSONAL_DATA_UNREADABLE at its path', () => {
    const { source } = ringOf('k1', 'k2');
    const stage = fieldEncryptionStage('handoff', source);
    const sealed = stage.seal(seed()) as Record<string, any>;
    const name = sealed.payload.data.customer_info.name as string;
    const [, , , keyId, wrapped, body] = name.split(':') as [string, string, string, string, string, string];
    const flip = (text: string) => `${text.slice(0, 10)}${text[10] === 'A' ? 'B' : 'A'}${text.slice(11)}`;
    const withName = (value: string) => ({
      ...sealed,
      payload: {
        ...sealed.payload,
        data: { ...sealed.payload.data, customer_info: { ...sealed.payload.data.customer_info, name: value } },
      },
    });
    const cases = {
      body: `${ENCRYPTED_VALUE_PREFIX}${keyId}:${wrapped}:${flip(body)}`,
      wrapped: `${ENCRYPTED_VALUE_PREFIX}${keyId}:${flip(wrapped)}:${body}`,
      relabelled: `${ENCRYPTED_VALUE_PREFIX}k2:${wrapped}:${body}`,
      malformed: `${ENCRYPTED_VALUE_PREFIX}${keyId}:${wrapped}`,
    };
    for (const value of Object.values(cases)) {
      const error = caught(() => stage.open(withName(value)));
      expect(error.code).toBe('PERSONAL_DATA_UNREADABLE');
      expect(error.path).toBe('/payload/data/customer_info/name');
      expect(error.retriable).toBe(false);
    }
  });

  it('refuses a value under a key id the ring does not have, naming the id and no key', () => {
    const writer = ringOf('pii-2026-11');
    const reader = ringOf('pii-2027-01');
    const sealed = fieldEncryptionStage('handoff', writer.source).seal(seed());
    const error = caught(() => fieldEncryptionStage('handoff', reader.source).open(sealed));
    expect(error.code).toBe('PERSONAL_DATA_UNREADABLE');
    expect(error.message).toContain('key id pii-2026-11');
    expect(error.details).toEqual({ key_id: 'pii-2026-11' });
    const shown = JSON.stringify({ ...error.toJSON(), stack: error.stack });
    for (const key of [...writer.keys.values(), ...reader.keys.values()]) {
      expect(shown).not.toContain(key.toString('base64'));
      expect(shown).not.toContain(key.toString('base64url'));
    }
  });

  it('rotates: the new primary encrypts, the old key still decrypts, and once removed its values no longer do', () => {
    const old = ringOf('pii-2026-11');
    const sealedBefore = fieldEncryptionStage('handoff', old.source).seal(seed());
    const both = new Map([...old.keys, ...ringOf('pii-2027-01').keys]);
    const rotated = ringWith(both, 'pii-2027-01').source;
    const stage = fieldEncryptionStage('handoff', rotated);
    const sealedAfter = stage.seal(seed()) as Record<string, any>;
    expect(sealedAfter.payload.data.customer_info.name.startsWith(`${ENCRYPTED_VALUE_PREFIX}pii-2027-01:`)).toBe(true);
    expect(stage.open(sealedBefore)).toEqual(seed());
    expect(stage.open(sealedAfter)).toEqual(seed());
    const retired = ringWith(new Map([['pii-2027-01', both.get('pii-2027-01')!]]), 'pii-2027-01').source;
    expect(fieldEncryptionStage('handoff', retired).open(sealedAfter)).toEqual(seed());
    expect(caught(() => fieldEncryptionStage('handoff', retired).open(sealedBefore)).code).toBe(
      'PERSONAL_DATA_UNREADABLE',
    );
  });

  it('chooses customer_info members at any depth, user_id excepted, and the fields the schemas mark', () => {
    const visited: string[] = [];
    new PersonalFields().map(
      'handoff',
      {
        payload: {
          handoff_type: 'PROVIDE_INFORMATION',
          data: { provided_info: { account: { customer_info: { user_id: 'u1', email: 'j@example.com' } } } },
        },
      },
      (value, pointer) => {
        visited.push(pointer);
        return value;
      },
    );
    expect(visited).toEqual(['/payload/data/provided_info/account/customer_info/email']);
  });
});
