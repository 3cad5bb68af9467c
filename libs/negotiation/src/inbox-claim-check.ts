import { BatonError } from '@baton/errors';
import { headerOf, type ConsumedRecord, type OutputRecord, type StoredContextRef } from '@baton/kafka';
import type { HandoffMessage, Immutable } from '@baton/protocol';
import type { WireStage } from '@baton/wire';
import { CONTEXT_CONTENT_TYPE } from './context-offer.js';
import { handoffOfContext, type ContextSource } from './context-takeover.js';

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
 * too large for one record takes over as, in place of `handoffRecord`, the handoff's own record.
 * It keeps that record's topic, key and headers, so tools and logs see the handoff's ids without
 * fetching it.
 */
export function claimCheckRecord(handoffRecord: OutputRecord, ref: StoredContextRef): OutputRecord {
  return {
    topic: handoffRecord.topic,
    key: handoffRecord.key,
    value: Buffer.from(JSON.stringify(ref)),
    headers: {
      ...handoffRecord.headers,
      'content-type': CONTEXT_CONTENT_TYPE,
      [CLAIM_CHECK_HEADER]: CLAIM_CHECK_CONTEXT_REF,
    },
  };
}

/**
 * The handoff a claim-check record names, fetched, opened by `stage` and validated; undefined, at
 * once, for an ordinary record (nearly every record an inbox holds, asked on each). Fails like
 * handoffOfContext (CONTEXT_* codes, PERSONAL_DATA_UNREADABLE, VALIDATION_FAILED), or with
 * CONTEXT_REF_INVALID when the record's value is not a reference.
 */
export function resolveClaimCheck(
  record: ConsumedRecord,
  store: ContextSource,
  stage?: WireStage,
): Promise<Immutable<HandoffMessage>> | undefined {
  if (headerOf(record, CLAIM_CHECK_HEADER) === undefined) return undefined;
  return claimedHandoff(record, store, stage);
}

async function claimedHandoff(
  record: ConsumedRecord,
  store: ContextSource,
  stage: WireStage | undefined,
): Promise<Immutable<HandoffMessage>> {
  let ref: StoredContextRef | undefined;
  try {
    ref = JSON.parse(record.value?.toString('utf8') ?? '') as StoredContextRef | undefined;
  } catch {
    ref = undefined;
  }
  if (typeof ref?.uri !== 'string') {
    throw new BatonError('CONTEXT_REF_INVALID', 'a claim-check record’s value is not a context_ref');
  }
  return handoffOfContext({ context_ref: ref }, record.key ?? undefined, store, stage);
}
