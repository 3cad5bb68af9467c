import type { StoredContextRef } from '@baton/kafka';
import type { HandoffMessage, Immutable, TaskContextData, TaskContextTransferPayload } from '@baton/protocol';
import type { WireStage } from '@baton/wire';

/** context_data.schema_version of a context that carries a handoff message for the receiver to take over. */
export const HANDOFF_CONTEXT_SCHEMA_VERSION = 'baton.handoff.v1';
/** The media type contexts are stored with. */
export const CONTEXT_CONTENT_TYPE = 'application/json';

/** Contexts up to this many bytes of JSON travel in the message. */
export const DEFAULT_INLINE_MAX_BYTES = 256 * 1024; // 256 KiB
/**
 * The largest inline limit allowed: an inline context is one record of the events topic (the
 * staged context), which must stay under the broker's message.max.bytes (1 MiB by default) with
 * its envelope.
 */
export const MAX_INLINE_MAX_BYTES = 1_000_000; // ~976 KiB

/** The context_data of a negotiated handoff: the whole handoff the receiver will process. */
export interface HandoffContextData extends TaskContextData {
  schema_version: typeof HANDOFF_CONTEXT_SCHEMA_VERSION;
  handoff: Immutable<HandoffMessage>;
}

/** Stores a context too large for a record, before the transaction that sends its reference. */
export interface ContextSink {
  put(bytes: Buffer, options: { key: string; contentType: string }): Promise<StoredContextRef>;
}

/** The context_data that offers `handoff` to a receiver, described by `taskDescription` when there is one. */
export function handoffContextData(
  handoff: Immutable<HandoffMessage>,
  taskDescription: string | undefined,
): HandoffContextData {
  return {
    schema_version: HANDOFF_CONTEXT_SCHEMA_VERSION,
    ...(taskDescription ? { task_description: taskDescription } : {}),
    handoff,
  };
}

/**
 * The bytes a context is stored as: its JSON, sealed first by `stage` when there is one (with the
 * key ring, @baton/field-encryption's storedContextStage encrypts its personal fields, as the codecs
 * do to a context that travels in the message). A context_ref's sha256 and size describe these bytes.
 */
export function storedContextBytes(contextData: unknown, stage: WireStage | undefined): Buffer {
  return Buffer.from(JSON.stringify(stage === undefined ? contextData : stage.seal(contextData)));
}

/** How a context travels: in the message, or (over the inline limit) stored and named by reference. */
export type ContextTransferChoice =
  { mode: 'by-value'; context_data: TaskContextData } | { mode: 'by-reference'; bytes: Buffer };

/**
 * By value when the context's JSON is at most `inlineMaxBytes` long, else by reference with the
 * bytes to store, sealed by `stage` (see storedContextBytes): the protocol's advice for large
 * contexts, and what keeps a record under the broker's size limit.
 */
export function chooseContextTransfer(
  contextData: TaskContextData,
  inlineMaxBytes: number,
  stage?: WireStage,
): ContextTransferChoice {
  const json = JSON.stringify(contextData);
  if (Buffer.byteLength(json) <= inlineMaxBytes) return { mode: 'by-value', context_data: contextData };
  return {
    mode: 'by-reference',
    bytes: stage === undefined ? Buffer.from(json) : storedContextBytes(contextData, stage),
  };
}

/**
 * The TaskContextTransfer payload offering `contextData`: the context itself, or a reference to it
 * once stored (sealed by `stage`) under the task's key. The put happens before the transaction
 * that stages the reference (a claim check): a put whose transaction then aborts leaves chunks
 * nothing names, which retention removes.
 */
export async function contextTransferPayload(
  contextData: TaskContextData,
  options: { taskId: string; inlineMaxBytes: number; store: ContextSink; stage?: WireStage },
): Promise<TaskContextTransferPayload> {
  const choice = chooseContextTransfer(contextData, options.inlineMaxBytes, options.stage);
  if (choice.mode === 'by-value') return { context_data: choice.context_data };
  const ref = await options.store.put(choice.bytes, { key: options.taskId, contentType: CONTEXT_CONTENT_TYPE });
  return { context_ref: { ...ref } };
}
