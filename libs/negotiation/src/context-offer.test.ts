import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parseHandoff, type HandoffMessage } from '@baton/protocol';
import { chooseContextTransfer, contextTransferPayload, handoffContextData } from './context-offer.js';
import { memoryContextStore } from './memory-context-store.test-helper.js';
import { wrappingStage } from './wrapping-stage.test-helper.js';

const require = createRequire(import.meta.url);
const handoff = parseHandoff(require('@baton/schemas/fixtures/seed-000-escalation-full.json') as HandoffMessage);
const TASK = handoff.metadata.task_id;

describe('handoffContextData', () => {
  it('carries the whole handoff under a schema version, described by the task description', () => {
    expect(handoffContextData(handoff, 'diagnose DHCP')).toEqual({
      schema_version: 'baton.handoff.v1',
      task_description: 'diagnose DHCP',
      handoff,
    });
    expect(handoffContextData(handoff, '')).not.toHaveProperty('task_description');
  });
});

describe('chooseContextTransfer', () => {
  const context = { schema_version: 'v', task_description: 'é' };
  const bytes = Buffer.byteLength(JSON.stringify(context));

  it('sends a context of at most the inline limit by value', () => {
    expect(chooseContextTransfer(context, bytes)).toEqual({ mode: 'by-value', context_data: context });
  });

  it('stores a larger one, counting bytes rather than characters', () => {
    expect(JSON.stringify(context).length).toBe(bytes - 1);
    expect(chooseContextTransfer(context, bytes - 1)).toEqual({
      mode: 'by-reference',
      bytes: Buffer.from(JSON.stringify(context)),
    });
  });

  it('stores a larger one as its stage seals it', () => {
    const stage = wrappingStage();
    expect(chooseContextTransfer(context, bytes - 1, stage)).toEqual({
      mode: 'by-reference',
      bytes: Buffer.from(JSON.stringify(stage.seal(context))),
    });
  });

  it('stores every context at limit 0', () => {
    expect(chooseContextTransfer({}, 0).mode).toBe('by-reference');
  });
});

describe('contextTransferPayload', () => {
  it('carries a small context as context_data and stores nothing', async () => {
    const store = memoryContextStore();
    const data = handoffContextData(handoff, 'x');
    expect(await contextTransferPayload(data, { taskId: TASK, inlineMaxBytes: 1_000_000, store })).toEqual({
      context_data: data,
    });
    expect(store.puts).toEqual([]);
  });

  it('stores a large one as JSON under the task id and carries the reference', async () => {
    const store = memoryContextStore();
    const data = handoffContextData(handoff, 'x');
    const payload = await contextTransferPayload(data, { taskId: TASK, inlineMaxBytes: 100, store });
    expect(store.puts).toEqual([
      { key: TASK, contentType: 'application/json', bytes: Buffer.from(JSON.stringify(data)) },
    ]);
    expect(payload).toEqual({
      context_ref: {
        uri: 'kafka://baton.contexts/0/0',
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        size_bytes: Buffer.byteLength(JSON.stringify(data)),
        content_type: 'application/json',
      },
    });
  });

  it('stores a large one as the stage seals it, the reference describing the bytes as stored; a small one is left to the codecs', async () => {
    const store = memoryContextStore();
    const stage = wrappingStage();
    const data = handoffContextData(handoff, 'x');
    const payload = await contextTransferPayload(data, { taskId: TASK, inlineMaxBytes: 100, store, stage });
    const stored = Buffer.from(JSON.stringify(stage.seal(data)));
    expect(store.puts).toEqual([{ key: TASK, contentType: 'application/json', bytes: stored }]);
    expect(stored.toString()).not.toContain('John Doe');
    expect(payload.context_ref).toMatchObject({
      sha256: createHash('sha256').update(stored).digest('hex'),
      size_bytes: stored.length,
    });
    expect(await contextTransferPayload(data, { taskId: TASK, inlineMaxBytes: 1_000_000, store, stage })).toEqual({
      context_data: data,
    });
    expect(store.puts).toHaveLength(1);
  });
});
