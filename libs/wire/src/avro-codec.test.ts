import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parseHandoff, type HandoffMessage } from '@baton/protocol';
import { createHandoffCodec } from './handoff-codec.js';
import { memorySchemaRegistry } from './memory-schema-registry.js';

const require = createRequire(import.meta.url);
const handoff = parseHandoff(require('@baton/schemas/fixtures/seed-000-escalation-full.json') as HandoffMessage);

/** The handoff with `bytes` more of text in its context, to pass the codecs' 64 KiB of scratch space. */
function larger(bytes: number): HandoffMessage {
  const copy = structuredClone(handoff) as HandoffMessage;
  (copy.context as { historical_data_summary: string }).historical_data_summary = 'x'.repeat(bytes);
  return copy;
}

describe('AvroCodec.encode', () => {
  it('gives each record bytes of its own: a later encode leaves an earlier record as it was', async () => {
    const codec = await createHandoffCodec(memorySchemaRegistry());
    const first = codec.encode(handoff);
    const copy = Buffer.from(first);
    codec.encode(larger(1_000));
    expect(first.equals(copy)).toBe(true);
    expect(first[0]).toBe(0);
    expect(first.readInt32BE(1)).toBe(codec.schemaId);
    expect(await codec.decode(first)).toEqual(handoff);
  });

  it('encodes a value larger than its scratch space, exactly, and the next small one as before', async () => {
    const codec = await createHandoffCodec(memorySchemaRegistry());
    const big = larger(200_000);
    const bytes = codec.encode(big);
    expect(bytes.length).toBeGreaterThan(200_000);
    expect(bytes.readInt32BE(1)).toBe(codec.schemaId);
    expect(await codec.decode(bytes)).toEqual(parseHandoff(big));
    const small = codec.encode(handoff);
    expect(small.length).toBeLessThan(bytes.length);
    expect(await codec.decode(small)).toEqual(handoff);
  });
});
