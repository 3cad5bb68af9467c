import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { ConsumedRecord } from '@baton/kafka';
import { parseHandoff, type HandoffMessage } from '@baton/protocol';
import type { HandoffCodec } from '@baton/wire';
import { handoffProcessor } from './handoff-processor.js';

const require = createRequire(import.meta.url);
const handoff = parseHandoff(require('@baton/schemas/fixtures/seed-000-escalation-full.json') as HandoffMessage);
const record: ConsumedRecord = {
  topic: 't',
  partition: 0,
  offset: '0',
  key: 'k',
  value: Buffer.from('x'),
  headers: {},
  timestamp: '0',
};

describe('handoffProcessor', () => {
  it('decodes a record’s value, unless `resolve` gives the handoff (a claim check)', async () => {
    const decoded: Buffer[] = [];
    const codec = { read: (bytes: Buffer) => (decoded.push(bytes), handoff) } as unknown as HandoffCodec;
    const handle = () => [];
    const plain = handoffProcessor({ codec, handle, resolve: () => undefined });
    expect(await plain.decode(record)).toMatchObject({ value: handoff, messageId: handoff.metadata.message_id });
    expect(decoded).toHaveLength(1);
    const claimed = handoffProcessor({ codec, handle, resolve: async () => handoff });
    expect(await claimed.decode({ ...record, value: null })).toMatchObject({
      value: handoff,
      messageId: handoff.metadata.message_id,
      labels: { handoff_type: 'ESCALATION', issue_category: 'NETWORK_CONNECTIVITY' },
    });
    expect(decoded).toHaveLength(1);
  });

  it('decodes at once when the codec reads at once, and waits only for a codec that waits', async () => {
    const handle = () => [];
    const atOnce = handoffProcessor({ codec: { read: () => handoff } as unknown as HandoffCodec, handle });
    const now = atOnce.decode(record);
    expect(now).not.toBeInstanceOf(Promise);
    expect(now).toMatchObject({ value: handoff, messageId: handoff.metadata.message_id });
    const waiting = handoffProcessor({ codec: { read: async () => handoff } as unknown as HandoffCodec, handle });
    const later = waiting.decode(record);
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toMatchObject({ value: handoff, messageId: handoff.metadata.message_id });
  });

  it('refuses a record without a value as WIRE_FORMAT_INVALID', () => {
    const processor = handoffProcessor({ codec: { read: () => handoff } as unknown as HandoffCodec, handle: () => [] });
    expect(() => processor.decode({ ...record, value: null })).toThrow(
      expect.objectContaining({ code: 'WIRE_FORMAT_INVALID' }),
    );
  });
});
