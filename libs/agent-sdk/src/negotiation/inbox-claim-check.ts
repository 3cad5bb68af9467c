import { BatonError } from '@baton/errors';
import type { ConsumedRecord, OutputRecord, StoredContextRef } from '@baton/kafka';
import { CONTEXT_CONTENT_TYPE, handoffHeaders, type Handoff } from '@baton/runtime';
import { handoffOfContext, type ContextSource } from './handoff-context.js';

/** Marks an inbox record whose value is the context_ref (JSON) of a stored context holding the handoff. */
export const CLAIM_CHECK_HEADER = 'baton.claim-check';
const CLAIM_CHECK_CONTEXT_REF = 'context_ref';

/**
 * The largest encoded handoff an inbox record holds; a larger one goes as a claim check. The broker
 * refuses records over message.max.bytes (1 MiB by default), headers included.
 */
export const INBOX_RECORD_MAX_BYTES = 1_000_000; // ~976 KiB

/**
 * An inbox record naming a stored context whose handoff the agent is to process: what a context
 * too large for one record takes over as. Its headers are the handoff's own, so tools and logs see
 * the handoff's ids without fetching it.
 */
export function claimCheckRecord(
  topic: string,
  handoff: Handoff,
  ref: StoredContextRef,
  parentTraceparent: string | undefined,
): OutputRecord {
  return {
    topic,
    key: handoff.metadata.task_id,
    value: Buffer.from(JSON.stringify(ref)),
    headers: {
      ...handoffHeaders(handoff, parentTraceparent),
      'content-type': CONTEXT_CONTENT_TYPE,
      [CLAIM_CHECK_HEADER]: CLAIM_CHECK_CONTEXT_REF,
    },
  };
}

/**
 * The handoff a claim-check record names, fetched and validated; undefined for an ordinary record.
 * Fails like handoffOfContext (CONTEXT_* codes, VALIDATION_FAILED), or with CONTEXT_REF_INVALID when
 * the record's value is not a reference.
 */
export async function resolveClaimCheck(record: ConsumedRecord, store: ContextSource): Promise<Handoff | undefined> {
  if (record.headers[CLAIM_CHECK_HEADER] === undefined) return undefined;
  let ref: StoredContextRef | undefined;
  try {
    ref = JSON.parse(record.value?.toString('utf8') ?? '') as StoredContextRef | undefined;
  } catch {
    ref = undefined;
  }
  if (typeof ref?.uri !== 'string') {
    throw new BatonError('CONTEXT_REF_INVALID', 'a claim-check record’s value is not a context_ref');
  }
  return handoffOfContext({ context_ref: ref }, record.key ?? undefined, store);
}
