import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { HandoffMessage } from '@baton/protocol';
import { memorySchemaRegistry } from './memory-schema-registry.js';
import type { SchemaRegistryClient } from './schema-registry-client.js';
import { serviceCodecs } from './service-codecs.js';

const require = createRequire(import.meta.url);
const handoff = require('@baton/schemas/fixtures/approval-request.example.json') as HandoffMessage;

/** The in-memory registry, counting its registrations and failing the first `failures` of them. */
function countingRegistry(failures = 0) {
  const inner = memorySchemaRegistry();
  let calls = 0;
  const registry = {
    register: async (...args: Parameters<SchemaRegistryClient['register']>) => {
      calls += 1;
      if (calls <= failures) throw new Error('registry unreachable');
      return inner.register(...args);
    },
    avroType: (id: number) => inner.avroType(id),
  } as SchemaRegistryClient;
  return { registry, calls: () => calls };
}

describe("a service's codecs", () => {
  it('are built without the registry and encode only once registered, each schema registered once', async () => {
    const { registry, calls } = countingRegistry();
    const codecs = serviceCodecs(registry);
    expect(calls()).toBe(0);
    expect(() => codecs.codec.encode(handoff)).toThrow('writes only once its schema is registered');
    await Promise.all([codecs.register(), codecs.register()]);
    expect(calls()).toBe(4);
    const bytes = codecs.codec.encode(handoff);
    expect(bytes.readInt32BE(1)).toBe(codecs.codec.schemaId);
    expect(await codecs.codec.decode(bytes)).toEqual(handoff);
  });

  it('can register again after a failed attempt', async () => {
    const { registry, calls } = countingRegistry(1);
    const codecs = serviceCodecs(registry);
    await expect(codecs.register()).rejects.toThrow('registry unreachable');
    await codecs.register();
    expect(calls()).toBe(5);
    expect(() => codecs.outcomeCodec.schemaId).not.toThrow();
    expect(
      new Set([codecs.codec, codecs.outcomeCodec, codecs.lifecycleCodec, codecs.stagedCodec].map((c) => c.schemaId))
        .size,
    ).toBe(4);
  });
});
