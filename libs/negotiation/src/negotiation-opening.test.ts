import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { hasErrorCode } from '@baton/errors';
import { topicNames } from '@baton/kafka';
import { parseHandoff, type HandoffMessage, type Immutable } from '@baton/protocol';
import type { LifecycleCodec, StagedContextCodec } from '@baton/wire';
import type { NegotiationOpener } from './negotiation-opening.js';
import { openNegotiation, openingRecords, soleRecipient } from './negotiation-opening.js';
import { wrappingStage } from './wrapping-stage.test-helper.js';

const require = createRequire(import.meta.url);
const seed = require('@baton/schemas/fixtures/seed-000-escalation-full.json') as HandoffMessage;
const handoff: Immutable<HandoffMessage> = parseHandoff({
  ...seed,
  metadata: { ...seed.metadata, recipient_id: 'level3_network_expert_agent_pool' },
});
const REQUEST_ID = '6f1c5e52-3f4b-4a43-9a7e-3c1b2a0d9e11';
const options = { newId: () => REQUEST_ID, now: () => new Date('2026-11-21T12:00:00.000Z') };
const terms = { reason: 'needs tier 3', desired_agent_type: 'network', summary: 'drops hourly' };

/** An opener that records what it was asked to store and which control topics it made sure of. */
function recordingOpener(
  inlineMaxBytes: number,
): NegotiationOpener & { puts: string[]; stored: Buffer[]; ensured: string[] } {
  const puts: string[] = [];
  const stored: Buffer[] = [];
  const ensured: string[] = [];
  return {
    puts,
    stored,
    ensured,
    inlineMaxBytes,
    contexts: {
      async put(bytes, put) {
        puts.push(put.key);
        stored.push(bytes);
        return { uri: 'kafka://t.contexts/0/0', sha256: 'a'.repeat(64), size_bytes: bytes.length, content_type: 'x' };
      },
    },
    async ensureControlTopic(agentId) {
      ensured.push(agentId);
    },
  };
}

describe('soleRecipient', () => {
  it('is the recipient_id, given as a string or as a list of one', () => {
    expect(soleRecipient(handoff)).toBe('level3_network_expert_agent_pool');
    expect(soleRecipient({ metadata: { ...handoff.metadata, recipient_id: ['solo'] } })).toBe('solo');
  });

  it('refuses a handoff to several agents as VALIDATION_FAILED at /metadata/recipient_id', () => {
    const several = { metadata: { ...handoff.metadata, recipient_id: ['a', 'b'] } };
    expect(() => soleRecipient(several)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', path: '/metadata/recipient_id' }),
    );
  });
});

describe('openNegotiation', () => {
  it('makes sure of the receiver’s control topic and offers the handoff by value under the limit', async () => {
    const opener = recordingOpener(1_000_000);
    const { request, staged } = await openNegotiation(
      handoff,
      { ...terms, taskDescription: 'diagnose' },
      opener,
      options,
    );
    expect(opener.ensured).toEqual(['level3_network_expert_agent_pool']);
    expect(opener.puts).toEqual([]);
    expect(request).toMatchObject({
      message_id: REQUEST_ID,
      message_type: 'HandoffRequest',
      sender_id: 'customer_service_agent_001',
      receiver_id: 'level3_network_expert_agent_pool',
      payload: { reason: 'needs tier 3', desired_agent_type: 'network', priority: 'HIGH' },
    });
    expect(staged).toMatchObject({
      request_message_id: REQUEST_ID,
      context: { context_data: { schema_version: 'baton.handoff.v1', task_description: 'diagnose', handoff } },
      terms: { desired_agent_type: 'network', time_limit: 'PT2H', expiration_time: handoff.metadata.expiration_time },
    });
  });

  it("stages the context at the request's own time, which a clock read later would put after it", async () => {
    let tick = Date.parse('2026-12-08T00:00:23.780Z');
    // Each reading of this clock is 120 ms later than the one before.
    const { request, staged } = await openNegotiation(handoff, terms, recordingOpener(1_000_000), {
      ...options,
      now: () => new Date((tick += 120)),
    });
    expect(staged.staged_at).toBe(request.timestamp);
  });

  it('stores a context over the limit under the task id and stages its reference', async () => {
    const opener = recordingOpener(10);
    const { staged } = await openNegotiation(handoff, terms, opener, options);
    expect(opener.puts).toEqual([handoff.metadata.task_id]);
    expect(staged.context).toEqual({ context_ref: expect.objectContaining({ uri: 'kafka://t.contexts/0/0' }) });
  });

  it('stores the context as the opener’s stage seals it', async () => {
    const contextStage = wrappingStage();
    const opener = { ...recordingOpener(10), contextStage };
    await openNegotiation(handoff, { ...terms, taskDescription: 'diagnose' }, opener, options);
    expect(opener.stored.map((bytes) => contextStage.open(JSON.parse(bytes.toString())))).toEqual([
      { schema_version: 'baton.handoff.v1', task_description: 'diagnose', handoff },
    ]);
  });

  it('stores nothing and creates no topic for a handoff to several agents', async () => {
    const opener = recordingOpener(0);
    const several = parseHandoff({ ...handoff, metadata: { ...handoff.metadata, recipient_id: ['a', 'b'] } });
    const error = await openNegotiation(several, terms, opener, options).catch((caught: unknown) => caught);
    expect(hasErrorCode(error, 'VALIDATION_FAILED')).toBe(true);
    expect([opener.puts, opener.ensured]).toEqual([[], []]);
  });
});

describe('openingRecords', () => {
  it('puts the staged context before the request on the events topic, then the request on the receiver’s control topic', async () => {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value));
    const codecs = {
      lifecycleCodec: { encode } as unknown as LifecycleCodec,
      stagedCodec: { encode } as unknown as StagedContextCodec,
    };
    const opening = await openNegotiation(handoff, terms, recordingOpener(1_000_000), options);
    const records = openingRecords(codecs, topicNames('t'), opening);
    expect(records.map((record) => [record.topic, record.key, record.headers?.ce_type])).toEqual([
      ['t.events', handoff.metadata.task_id, 'baton.lifecycle.StagedContext'],
      ['t.events', handoff.metadata.task_id, 'baton.lifecycle.HandoffRequest'],
      ['t.agent.level3_network_expert_agent_pool.control', handoff.metadata.task_id, 'baton.lifecycle.HandoffRequest'],
    ]);
  });
});
