import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { isBatonError } from '@baton/errors';
import type { HandoffMessage } from '@baton/protocol';
import { memorySchemaRegistry, readWireFormat, serviceCodecs } from '@baton/wire';
import { personalDataStages } from './personal-data-stages.js';
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
