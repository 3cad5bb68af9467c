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
    const codec = { decode: async (bytes: Buffer) => (decoded.push(bytes), handoff) } as unknown as HandoffCodec;
    const handle = async () => [];
    const plain = handoffProcessor({ codec, handle, resolve: async () => undefined });
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
});
