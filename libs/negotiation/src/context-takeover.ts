import { BatonError } from '@baton/errors';
import type { StoredContextRef } from '@baton/kafka';
import { parseHandoff, type HandoffMessage, type Immutable, type TaskContextTransferPayload } from '@baton/protocol';
import type { WireStage } from '@baton/wire';
import { CONTEXT_CONTENT_TYPE } from './context-offer.js';

/** Fetches a context a TaskContextTransfer names by reference, checked against the reference. */
export interface ContextSource {
  get(ref: StoredContextRef): Promise<Buffer>;
}

function invalidContext(message: string, path: string): BatonError {
  return new BatonError('VALIDATION_FAILED', message, { path });
}

/**
 * The handoff a transferred context carries, validated: fetched first when it came by reference,
 * and then opened by `stage` (the one its writer sealed it with: with the key ring, its personal
 * fields decrypted; without, they stay encrypted, which validation accepts). A context by value
 * was opened by the lifecycle codec already. Fails with the store's CONTEXT_* codes,
 * PERSONAL_DATA_UNREADABLE when the stage cannot open it, or VALIDATION_FAILED (and the handoff's
 * own validation codes) when the context holds no valid handoff of the transfer's task; all of
 * these are permanent. A fetch that ran out of time is KAFKA_UNAVAILABLE, which is worth retrying.
 */
export async function handoffOfContext(
  payload: Immutable<TaskContextTransferPayload>,
  taskId: string | undefined,
  store: ContextSource,
  stage?: WireStage,
): Promise<Immutable<HandoffMessage>> {
  let contextData: unknown;
  if (payload.context_ref === undefined) {
    contextData = payload.context_data;
  } else {
    const ref = payload.context_ref;
    if (ref.content_type !== CONTEXT_CONTENT_TYPE) {
      throw invalidContext(
        `the context is ${ref.content_type}, not ${CONTEXT_CONTENT_TYPE}`,
        '/context_ref/content_type',
      );
    }
    const bytes = await store.get({ ...ref });
    let stored: unknown;
    try {
      stored = JSON.parse(bytes.toString('utf8'));
    } catch (cause) {
      throw new BatonError('VALIDATION_FAILED', `the context at ${ref.uri} is not JSON`, {
        cause,
        path: '/context_ref',
      });
    }
    contextData = stage === undefined ? stored : await stage.open(stored);
  }
  const handoff = (contextData as { handoff?: unknown } | null)?.handoff;
  if (handoff === undefined) throw invalidContext('the context carries no handoff', '/context_data/handoff');
  const parsed = parseHandoff(handoff);
  if (taskId !== undefined && parsed.metadata.task_id !== taskId) {
    throw invalidContext(
      `the context's handoff is of task ${parsed.metadata.task_id}, not ${taskId}`,
      '/context_data/handoff/metadata/task_id',
    );
  }
  return parsed;
}
