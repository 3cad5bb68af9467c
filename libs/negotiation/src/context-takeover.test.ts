import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { hasErrorCode, type BatonError } from '@baton/errors';
import { parseHandoff, type HandoffMessage } from '@baton/protocol';
import { contextTransferPayload, handoffContextData } from './context-offer.js';
import { handoffOfContext } from './context-takeover.js';
import { memoryContextStore } from './memory-context-store.test-helper.js';
import { wrappingStage } from './wrapping-stage.test-helper.js';

const require = createRequire(import.meta.url);
const handoff = parseHandoff(require('@baton/schemas/fixtures/seed-000-escalation-full.json') as HandoffMessage);
const TASK = handoff.metadata.task_id;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => error,
  );
}

describe('handoffOfContext', () => {
  it('reads the handoff of a context sent by value', async () => {
    const payload = { context_data: handoffContextData(handoff, 'x') };
    expect(await handoffOfContext(payload, TASK, memoryContextStore())).toEqual(handoff);
  });

  it('fetches a context sent by reference, then reads its handoff', async () => {
    const store = memoryContextStore();
    const payload = await contextTransferPayload(handoffContextData(handoff, 'x'), {
      taskId: TASK,
      inlineMaxBytes: 0,
      store,
    });
    expect(await handoffOfContext(payload, TASK, store)).toEqual(handoff);
  });

  it('opens a context fetched by reference with the stage its writer sealed it with; one by value the codec opened', async () => {
    const store = memoryContextStore();
    const stage = wrappingStage();
    const payload = await contextTransferPayload(handoffContextData(handoff, 'x'), {
      taskId: TASK,
      inlineMaxBytes: 0,
      store,
      stage,
    });
    expect(await handoffOfContext(payload, TASK, store, stage)).toEqual(handoff);
    expect(await handoffOfContext({ context_data: handoffContextData(handoff, 'x') }, TASK, store, stage)).toEqual(
      handoff,
    );
  });

  it('refuses a stored context its stage cannot open with the stage’s code, which is not retried', async () => {
    const store = memoryContextStore();
    const payload = await contextTransferPayload(handoffContextData(handoff, 'x'), {
      taskId: TASK,
      inlineMaxBytes: 0,
      store,
    });
    const error = await rejection(handoffOfContext(payload, TASK, store, wrappingStage()));
    expect(hasErrorCode(error, 'PERSONAL_DATA_UNREADABLE')).toBe(true);
    expect((error as BatonError).retriable).toBe(false);
  });

  it('passes the store’s failures on with their codes', async () => {
    const ref = {
      uri: 'kafka://baton.contexts/0/7',
      sha256: '0'.repeat(64),
      size_bytes: 2,
      content_type: 'application/json',
    };
    const error = await rejection(handoffOfContext({ context_ref: ref }, TASK, memoryContextStore()));
    expect(hasErrorCode(error, 'CONTEXT_NOT_FOUND')).toBe(true);
  });

  it.each([
    ['no handoff', { context_data: { schema_version: 'v' } }, '/context_data/handoff'],
    ['an invalid handoff', { context_data: { handoff: { metadata: {} } } }, undefined],
    [
      'the handoff of another task',
      { context_data: { handoff: { ...handoff, metadata: { ...handoff.metadata, task_id: 'other' } } } },
      '/context_data/handoff/metadata/task_id',
    ],
  ])('refuses a context with %s as VALIDATION_FAILED, which is not retried', async (_case, payload, path) => {
    const error = await rejection(handoffOfContext(payload, TASK, memoryContextStore()));
    expect(hasErrorCode(error, 'VALIDATION_FAILED')).toBe(true);
    expect((error as BatonError).retriable).toBe(false);
    if (path !== undefined) expect((error as BatonError).path).toBe(path);
  });

  it('refuses stored bytes that are not JSON, or not JSON at all by their content type', async () => {
    const store = memoryContextStore();
    const ref = await store.put(Buffer.from('{not json'), { key: TASK, contentType: 'application/json' });
    expect(
      hasErrorCode(await rejection(handoffOfContext({ context_ref: ref }, TASK, store)), 'VALIDATION_FAILED'),
    ).toBe(true);
    const text = await store.put(Buffer.from('hello'), { key: TASK, contentType: 'text/plain' });
    expect(await rejection(handoffOfContext({ context_ref: text }, TASK, store))).toMatchObject({
      code: 'VALIDATION_FAILED',
      path: '/context_ref/content_type',
    });
  });
});
