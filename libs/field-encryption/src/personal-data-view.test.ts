import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { fieldEncryptionStage } from './field-encryption-stage.js';
import { MASKED, PersonalDataView } from './personal-data-view.js';
import { PersonalFields } from './personal-fields.js';
import { ringOf } from './test-key-rings.test-helper.js';

const require = createRequire(import.meta.url);
const seed = (): Record<string, any> =>
  structuredClone(require('@baton/schemas/fixtures/seed-000-escalation-full.json')) as Record<string, any>;

describe('the personal data view', () => {
  const { source } = ringOf('k1');
  const sealed = fieldEncryptionStage('handoff', source).seal(seed()) as Record<string, any>;

  it('masks the personal fields of a sealed body, and of one that travelled in clear', () => {
    const view = new PersonalDataView(source);
    for (const body of [sealed, seed()]) {
      const masked = view.masked('handoff', body) as Record<string, any>;
      expect(masked.payload.data.customer_info).toEqual({
        user_id: seed().payload.data.customer_info.user_id,
        name: MASKED,
        contact_number: MASKED,
      });
      expect(masked.context.historical_data_summary).toBe(MASKED);
      expect(masked.context.user_interaction_history.map((item: any) => item.content)).toEqual([MASKED, MASKED]);
      expect(masked.payload.data.technical_details.symptoms).toBe(MASKED);
      expect(masked.metadata).toEqual(seed().metadata);
    }
  });

  it('masks an encrypted value wherever it was copied', () => {
    const copied = { ...seed(), instructions: { next_steps_suggestion: sealed.payload.data.customer_info.name } };
    expect((new PersonalDataView(source).masked('handoff', copied) as any).instructions.next_steps_suggestion).toBe(
      MASKED,
    );
  });

  it('reveals what the key ring decrypts, and masks what it cannot', () => {
    expect(new PersonalDataView(source).revealed(sealed)).toEqual(seed());
    const foreign = new PersonalDataView(ringOf('k2').source).revealed(sealed) as Record<string, any>;
    expect(foreign.payload.data.customer_info.name).toBe(MASKED);
    expect((new PersonalDataView(undefined).revealed(sealed) as any).context.historical_data_summary).toBe(MASKED);
  });
});

describe('what a viewer may be shown of a record', () => {
  const { source } = ringOf('k1');
  const sealed = fieldEncryptionStage('handoff', source).seal(seed()) as Record<string, any>;
  const fields = new PersonalFields();

  it('lists the personal fields in clear, none once sealed', () => {
    const clear = seed();
    expect(fields.inClear('handoff', clear)).toEqual(
      expect.arrayContaining(['/payload/data/customer_info/name', '/payload/data/customer_info/contact_number']),
    );
    expect(fields.inClear('handoff', clear)).not.toContain('/payload/data/customer_info/user_id');
    expect(fields.inClear('handoff', sealed)).toEqual([]);
    const partly = structuredClone(sealed);
    partly.payload.data.customer_info.name = 'Ada Lovelace';
    expect(fields.inClear('handoff', partly)).toEqual(['/payload/data/customer_info/name']);
  });

  it('masks a clear personal value quoted in a text, and leaves the rest of the text', () => {
    const clear = seed();
    const { name, contact_number: phone } = clear.payload.data.customer_info;
    const mask = new PersonalDataView(source).quotedValueMask('handoff', clear);
    expect(mask(`call ${name} at ${phone}, task ${clear.metadata.task_id}`)).toBe(
      `call ${MASKED} at ${MASKED}, task ${clear.metadata.task_id}`,
    );
    expect(new PersonalDataView(source).quotedValueMask('handoff', sealed)(`call ${name}`)).toBe(`call ${name}`);
  });
});
