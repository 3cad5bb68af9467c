import { isBatonError } from '@baton/errors';
import type { PersonalDataView } from '@baton/field-encryption';
import type { DeadLetterDetail, DeadLetterSummary } from '@baton/gateway-api';
import { readDeadLetterFacts, type ConsumedRecord } from '@baton/kafka';
import type { HandoffCodec } from '@baton/wire';
import type { AuditTrail } from '../audit/audit-trail.js';
import { deadLetterId } from './dead-letter-store.js';

function factsOf(record: ConsumedRecord) {
  const facts = readDeadLetterFacts(record.headers);
  // The store lists only records with dead-letter headers.
  if (!facts) throw new Error(`record ${record.topic}/${deadLetterId(record)} has no dead-letter headers`);
  return facts;
}

export function deadLetterSummary(record: ConsumedRecord, audit: AuditTrail): DeadLetterSummary {
  const facts = factsOf(record);
  const id = deadLetterId(record);
  return {
    id,
    topic: record.topic,
    partition: record.partition,
    offset: record.offset,
    timestamp: new Date(Number(record.timestamp)).toISOString(),
    task_id: record.key,
    ...(record.headers.ce_id === undefined ? {} : { message_id: record.headers.ce_id }),
    ...(record.headers.ce_type === undefined ? {} : { handoff_type: record.headers.ce_type }),
    error_code: facts.errorCode,
    error_message: facts.errorMessage,
    stage: facts.stage,
    attempts: facts.attempts,
    source_topic: facts.topic,
    replay_count: audit.replaysOf(record.topic, id).filter((entry) => entry.action === 'replay').length,
  };
}

/**
 * Everything about one dead letter, its body decoded even when it broke the handoff schemas. With
 * `revealPersonalData`, the body's personal fields are in clear and the raw value is the record as
 * it travels. Without, the personal fields are masked, so is any clear personal value a header or
 * the error quotes, and the raw value is given only when it decodes and holds no personal field in
 * clear (encrypted or absent): a third party's unencrypted record would show in it what the body
 * masks. `value_redacted` says when it is withheld.
 */
export async function deadLetterDetail(
  record: ConsumedRecord,
  codec: HandoffCodec,
  audit: AuditTrail,
  view: { personalData: PersonalDataView; revealPersonalData: boolean },
): Promise<DeadLetterDetail> {
  const facts = factsOf(record);
  const { personalData, revealPersonalData } = view;
  let travelled: unknown;
  let body: unknown = null;
  let bodyError: { code: string; message: string } | undefined;
  try {
    travelled = record.value === null ? null : await codec.decodeUnchecked(record.value);
    body = revealPersonalData ? personalData.revealed(travelled) : personalData.masked('handoff', travelled);
  } catch (error) {
    bodyError = isBatonError(error)
      ? { code: error.code, message: error.message }
      : { code: 'WIRE_BODY_INVALID', message: (error as Error).message };
  }
  const mask = revealPersonalData ? (text: string) => text : personalData.quotedValueMask('handoff', travelled);
  const rawShown =
    revealPersonalData || (bodyError === undefined && personalData.inClear('handoff', travelled).length === 0);
  const summary = deadLetterSummary(record, audit);
  return {
    ...summary,
    error_message: mask(summary.error_message),
    headers: Object.fromEntries(Object.entries(record.headers).map(([name, value]) => [name, mask(value)])),
    error: {
      code: facts.errorCode,
      message: mask(facts.errorMessage),
      class: facts.errorClass,
      stage: facts.stage,
      retriable: facts.retriable,
      attempts: facts.attempts,
      consumer_group: facts.consumerGroup,
      instance_id: facts.instanceId,
      time: facts.time,
      source: { topic: facts.topic, partition: facts.partition, offset: facts.offset },
    },
    body,
    ...(bodyError === undefined ? {} : { body_error: bodyError }),
    value_base64: rawShown ? (record.value?.toString('base64') ?? null) : null,
    ...(rawShown || record.value === null ? {} : { value_redacted: 'personal-data' as const }),
    replays: audit.replaysOf(record.topic, deadLetterId(record)),
  };
}
