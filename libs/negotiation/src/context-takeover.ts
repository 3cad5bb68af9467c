import { BatonError } from '@baton/errors';
import type { StoredContextRef } from '@baton/kafka';
import { parseHandoff, type HandoffMessage, type Immutable, type TaskContextTransferPayload } from '@baton/protocol';
import { CONTEXT_CONTENT_TYPE } from './context-offer.js';

/** Fetches a context a TaskContextTransfer names by reference, checked against the reference. */
export interface ContextSource {
  get(ref: StoredContextRef): Promise<Buffer>;
}

function invalidContext(message: string, path: string): BatonError {
  return new BatonError('VALIDATION_FAILED', message, { path });
}

/**
 * The handoff a transferred context carries, validated: fetched first when it came by reference.
 * Fails with the store's CONTEXT_* codes, or VALIDATION_FAILED (and the handoff's own validation
 * codes) when the context holds no valid handoff of the transfer's task; all of these are
 * permanent. A fetch that ran out of time is KAFKA_UNAVAILABLE, which is worth retrying.
 */
export async function handoffOfContext(
  payload: Immutable<TaskContextTransferPayload>,
  taskId: string | undefined,
  store: ContextSource,
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
    try {
      contextData = JSON.parse(bytes.toString('utf8'));
    } catch (cause) {
      throw new BatonError('VALIDATION_FAILED', `the context at ${ref.uri} is not JSON`, {
        cause,
        path: '/context_ref',
      });
    }
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
