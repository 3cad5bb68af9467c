import { BatonError } from '@baton/errors';
import type { StoredContextRef } from '@baton/kafka';
import { parseHandoff, type Immutable, type TaskContextData, type TaskContextTransferPayload } from '@baton/protocol';
import type { Handoff } from '@baton/runtime';

/** context_data.schema_version of a context that carries a seed-000 handoff for the receiver to take over. */
export const HANDOFF_CONTEXT_SCHEMA_VERSION = 'baton.handoff.v1';
/** The media type contexts are stored with. */
export const CONTEXT_CONTENT_TYPE = 'application/json';

/** Seed 001's context_data of a negotiated handoff: the whole handoff the receiver will process. */
export interface HandoffContextData extends TaskContextData {
  schema_version: typeof HANDOFF_CONTEXT_SCHEMA_VERSION;
  handoff: Handoff;
}

/** Stores a context too large for a record, before the transaction that sends its reference. */
export interface ContextSink {
  put(bytes: Buffer, options: { key: string; contentType: string }): Promise<StoredContextRef>;
}

/** Fetches a context a TaskContextTransfer names by reference, checked against the reference. */
export interface ContextSource {
  get(ref: StoredContextRef): Promise<Buffer>;
}

/** The context_data that offers `handoff` to a receiver, described by `taskDescription` when there is one. */
export function handoffContextData(handoff: Handoff, taskDescription: string | undefined): HandoffContextData {
  return {
    schema_version: HANDOFF_CONTEXT_SCHEMA_VERSION,
    ...(taskDescription ? { task_description: taskDescription } : {}),
    handoff,
  };
}

/** How a context travels: in the message, or (over the inline limit) stored and named by reference. */
export type ContextTransferChoice =
  { mode: 'by-value'; context_data: TaskContextData } | { mode: 'by-reference'; bytes: Buffer };

/**
 * By value when the context's JSON is at most `inlineMaxBytes` long, else by reference with the
 * bytes to store: seed 001's advice for large contexts, and what keeps a record under the
 * broker's size limit.
 */
export function chooseContextTransfer(contextData: TaskContextData, inlineMaxBytes: number): ContextTransferChoice {
  const json = JSON.stringify(contextData);
  if (Buffer.byteLength(json) <= inlineMaxBytes) return { mode: 'by-value', context_data: contextData };
  return { mode: 'by-reference', bytes: Buffer.from(json) };
}

/**
 * The TaskContextTransfer payload offering `contextData`: the context itself, or a reference to it
 * once stored under the task's key. The put happens before the transaction that stages the
 * reference (a claim check): a put whose transaction then aborts leaves chunks nothing names,
 * which retention removes.
 */
export async function contextTransferPayload(
  contextData: TaskContextData,
  options: { taskId: string; inlineMaxBytes: number; store: ContextSink },
): Promise<TaskContextTransferPayload> {
  const choice = chooseContextTransfer(contextData, options.inlineMaxBytes);
  if (choice.mode === 'by-value') return { context_data: choice.context_data };
  const ref = await options.store.put(choice.bytes, { key: options.taskId, contentType: CONTEXT_CONTENT_TYPE });
  return { context_ref: { ...ref } };
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
): Promise<Handoff> {
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
