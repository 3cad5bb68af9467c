import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { isBatonError } from '@baton/errors';
import { ENCRYPTED_VALUE_PREFIX, isEncryptedValue, parseHandoff, type HandoffMessage } from '@baton/protocol';
import { memorySchemaRegistry, readWireFormat, serviceCodecs } from '@baton/wire';
import { mapStringsWhere } from './json-walk.js';
import { personalDataStages, storedContextStage } from './personal-data-stages.js';
import { ringOf } from './test-key-rings.test-helper.js';

const require = createRequire(import.meta.url);
const seed = require('@baton/schemas/fixtures/seed-000-escalation-full.json') as HandoffMessage;

describe('personal data stages in a service’s codecs', () => {
  it('write ciphertext to the wire, decode it back to the clear message, and pass through a codec without the key ring', async () => {
    const registry = memorySchemaRegistry();
    const { source } = ringOf('pii-2026-11');
    const holder = serviceCodecs(registry, personalDataStages(source));
    const router = serviceCodecs(registry);
    await Promise.all([holder.register(), router.register()]);

    const bytes = holder.codec.encode(seed);
    for (const clear of ['John Doe', '+1-555-123-4567', 'My internet keeps dropping']) {
      expect(bytes.toString('utf8')).not.toContain(clear);
    }
    expect(JSON.stringify(await holder.codec.decodeUnchecked(bytes))).not.toContain('John Doe');
    expect(await holder.codec.decode(bytes)).toEqual(seed);

    // A service without the key ring validates and forwards the ciphertext as it got it.
    const forwarded = router.codec.encode(await router.codec.decode(bytes));
    expect(readWireFormat(forwarded).body.equals(readWireFormat(bytes).body)).toBe(true);
    expect(await holder.codec.decode(forwarded)).toEqual(seed);
  });

  it('refuse a record encrypted under a key the ring lacks with PERSONAL_DATA_UNREADABLE', async () => {
    const registry = memorySchemaRegistry();
    const writer = serviceCodecs(registry, personalDataStages(ringOf('pii-a').source));
    const reader = serviceCodecs(registry, personalDataStages(ringOf('pii-b').source));
    await Promise.all([writer.register(), reader.register()]);
    const failure = await reader.codec.decode(writer.codec.encode(seed)).catch((error: unknown) => error);
    expect(isBatonError(failure) && failure.code).toBe('PERSONAL_DATA_UNREADABLE');
  });
});

describe('the stored context stage', () => {
  // A negotiated handoff's context as @baton/negotiation stores it by reference.
  const stored = () => ({
    schema_version: 'baton.handoff.v1',
    task_description: "User 'John Doe' reported",
    handoff: structuredClone(seed),
  });

  function encryptedPointers(message: unknown): string[] {
    const pointers: string[] = [];
    mapStringsWhere(message, isEncryptedValue, (text, pointer) => {
      pointers.push(pointer);
      return text;
    });
    return pointers.sort();
  }

  it('encrypts the task description and the carried handoff’s personal fields, under the primary key, and opens them back', () => {
    const stage = storedContextStage(ringOf('pii-2026-11').source);
    const sealed = stage.seal(stored()) as ReturnType<typeof stored>;
    expect(encryptedPointers(sealed)).toEqual([
      '/handoff/context/historical_data_summary',
      '/handoff/context/user_interaction_history/0/content',
      '/handoff/context/user_interaction_history/1/content',
      '/handoff/payload/data/customer_info/contact_number',
      '/handoff/payload/data/customer_info/name',
      '/handoff/payload/data/technical_details/symptoms',
      '/task_description',
    ]);
    expect(sealed.task_description.startsWith(`${ENCRYPTED_VALUE_PREFIX}pii-2026-11:`)).toBe(true);
    const text = JSON.stringify(sealed);
    for (const clear of ['John Doe', '+1-555-123-4567', 'My internet keeps dropping'])
      expect(text).not.toContain(clear);
    expect(sealed.schema_version).toBe('baton.handoff.v1');
    expect(sealed.handoff.metadata).toEqual(seed.metadata);
    // A reader without the key ring still gets a valid handoff, its personal fields encrypted.
    expect(parseHandoff(sealed.handoff)).toEqual(sealed.handoff);
    expect(stage.open(sealed)).toEqual(stored());
  });

  it('seals in the codecs’ format: the handoff stage opens a stored context’s handoff, and nothing is encrypted twice', () => {
    const { source } = ringOf('k1');
    const sealed = storedContextStage(source).seal(stored()) as ReturnType<typeof stored>;
    expect(personalDataStages(source).handoff[0]!.open(sealed.handoff)).toEqual(seed);
    expect(storedContextStage(source).seal(sealed)).toBe(sealed);
  });

  it('refuses a stored context encrypted under a key the ring lacks with PERSONAL_DATA_UNREADABLE', () => {
    const sealed = storedContextStage(ringOf('pii-a').source).seal(stored());
    let failure: unknown;
    try {
      storedContextStage(ringOf('pii-b').source).open(sealed);
    } catch (error) {
      failure = error;
    }
    expect(isBatonError(failure) && failure.code).toBe('PERSONAL_DATA_UNREADABLE');
  });
});
