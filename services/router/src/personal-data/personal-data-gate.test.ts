import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { BatonError } from '@baton/errors';
import { fieldEncryptionStage, fixedKeyRing } from '@baton/field-encryption';
import type { ConsumedRecord } from '@baton/kafka';
import { isEncryptedValue } from '@baton/protocol';
import type { Handoff } from '@baton/runtime';
import { AvroCodec, HANDOFF_CODEC_SPEC, memorySchemaRegistry } from '@baton/wire';
import { PersonalDataGate } from './personal-data-gate.js';

const require = createRequire(import.meta.url);
const seed = (): Handoff =>
  structuredClone(require('@baton/schemas/fixtures/seed-000-escalation-full.json')) as Handoff;
const keyRing = fixedKeyRing({ primaryId: 'k1', keys: new Map([['k1', randomBytes(32)]]) });

async function gateAndCodec() {
  const codec = new AvroCodec(memorySchemaRegistry(), HANDOFF_CODEC_SPEC);
  await codec.register();
  const gate = new PersonalDataGate(keyRing, {
    peekUnchecked: (bytes) => codec.peekUnchecked(bytes),
    encode: (message) => codec.encode(message as Handoff),
  });
  return { codec, gate };
}

function recordOf(value: Buffer): ConsumedRecord {
  return { topic: 't', partition: 0, offset: '0', key: 'k', value, headers: {}, timestamp: '0' } as ConsumedRecord;
}

describe('the personal data gate', () => {
  it('lets a handoff whose personal fields are encrypted pass', async () => {
    const { codec, gate } = await gateAndCodec();
    const sealed = fieldEncryptionStage('handoff', keyRing).seal(seed()) as Handoff;
    expect(() => gate.check(sealed, recordOf(codec.encode(sealed)))).not.toThrow();
  });

  it('refuses one in clear, naming the fields, and gives its dead letter the fields encrypted', async () => {
    const { codec, gate } = await gateAndCodec();
    const record = recordOf(codec.encode(seed()));
    let refusal: BatonError | undefined;
    try {
      gate.check(seed(), record);
    } catch (error) {
      refusal = error as BatonError;
    }
    expect(refusal).toMatchObject({ code: 'PERSONAL_DATA_UNENCRYPTED', path: '/context/historical_data_summary' });
    expect(refusal!.details?.fields).toContain('/payload/data/customer_info/name');
    expect(refusal!.message).not.toContain('John Doe');
    const value = gate.deadLetterValue({ record, message: undefined, error: refusal!, attempts: 1 })!;
    expect(value.toString('latin1')).not.toContain('John Doe');
    const body = (await codec.decodeUnchecked(value)) as Record<string, any>;
    expect(isEncryptedValue(body.payload.data.customer_info.contact_number)).toBe(true);
  });

  it('encrypts the clear fields of a dead letter refused before it decoded (an unsigned one), keeps others', async () => {
    const { codec, gate } = await gateAndCodec();
    const clear = recordOf(codec.encode(seed()));
    await codec.decode(clear.value!);
    const error = new BatonError('SIGNATURE_MISSING', 'unsigned');
    const value = gate.deadLetterValue({ record: clear, message: undefined, error, attempts: 1 })!;
    expect(value.toString('latin1')).not.toContain('+1-555-123-4567');
    const sealed = recordOf(codec.encode(fieldEncryptionStage('handoff', keyRing).seal(seed()) as Handoff));
    expect(gate.deadLetterValue({ record: sealed, message: undefined, error, attempts: 1 })).toBeUndefined();
    const garbage = recordOf(Buffer.from('not avro'));
    expect(gate.deadLetterValue({ record: garbage, message: undefined, error, attempts: 1 })).toBeUndefined();
  });
});
