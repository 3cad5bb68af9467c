import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parseHandoff, type HandoffMessage } from '@baton/protocol';
import { AvroCodec } from './avro-codec.js';
import { HANDOFF_CODEC_SPEC, createHandoffCodec } from './handoff-codec.js';
import { memorySchemaRegistry } from './memory-schema-registry.js';
import type { WireStage } from './wire-stage.js';

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

describe('AvroCodec.read', () => {
  const stage = (name: string, opened: string[], waits: boolean): WireStage => ({
    seal: (message) => message,
    open: (message) => {
      opened.push(name);
      return waits ? Promise.resolve(message) : message;
    },
  });

  it('decodes at once once the writer schema is known, and waits only to fetch it', async () => {
    const registry = memorySchemaRegistry();
    const bytes = (await createHandoffCodec(registry)).encode(handoff);
    const reader = new AvroCodec(registry, HANDOFF_CODEC_SPEC);
    const first = reader.read(bytes);
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toEqual(handoff);
    const second = reader.read(bytes);
    expect(second).not.toBeInstanceOf(Promise);
    expect(second).toEqual(handoff);
  });

  it('opens at once through stages that open at once, and waits for a stage that waits', async () => {
    const registry = memorySchemaRegistry();
    const bytes = (await createHandoffCodec(registry)).encode(handoff);
    const opened: string[] = [];
    const atOnce = new AvroCodec(registry, HANDOFF_CODEC_SPEC, [
      stage('outer', opened, false),
      stage('inner', opened, false),
    ]);
    const waiting = new AvroCodec(registry, HANDOFF_CODEC_SPEC, [
      stage('outer', opened, false),
      stage('inner', opened, true),
    ]);
    await atOnce.read(bytes);
    await waiting.read(bytes);
    opened.length = 0;
    const now = atOnce.read(bytes);
    expect(now).not.toBeInstanceOf(Promise);
    expect(now).toEqual(handoff);
    expect(opened).toEqual(['inner', 'outer']);
    opened.length = 0;
    const later = waiting.read(bytes);
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toEqual(handoff);
    expect(opened).toEqual(['inner', 'outer']);
  });

  it('throws a coded error at once for bytes it refuses, where decode rejects with it', async () => {
    const reader = await createHandoffCodec(memorySchemaRegistry());
    const refused = Buffer.from([7, 0, 0, 0, 1, 2]);
    expect(() => reader.read(refused)).toThrow(expect.objectContaining({ code: 'WIRE_FORMAT_INVALID' }));
    await expect(reader.decode(refused)).rejects.toMatchObject({ code: 'WIRE_FORMAT_INVALID' });
  });
});
