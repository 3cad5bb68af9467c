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
 * Everything about one dead letter, its body decoded even when it broke the handoff schemas. The
 * body's personal fields are in clear only when `revealPersonalData`, masked otherwise; the raw
 * value is the record as it travels (ciphertext), which is what the DLQ holds.
 */
export async function deadLetterDetail(
  record: ConsumedRecord,
  codec: HandoffCodec,
  audit: AuditTrail,
  view: { personalData: PersonalDataView; revealPersonalData: boolean },
): Promise<DeadLetterDetail> {
  const facts = factsOf(record);
  let body: unknown = null;
  let bodyError: { code: string; message: string } | undefined;
  try {
    const travelled = record.value === null ? null : await codec.decodeUnchecked(record.value);
    body = view.revealPersonalData
      ? view.personalData.revealed(travelled)
      : view.personalData.masked('handoff', travelled);
  } catch (error) {
    bodyError = isBatonError(error)
      ? { code: error.code, message: error.message }
      : { code: 'WIRE_BODY_INVALID', message: (error as Error).message };
  }
  return {
    ...deadLetterSummary(record, audit),
    headers: record.headers,
    error: {
      code: facts.errorCode,
      message: facts.errorMessage,
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
    value_base64: record.value?.toString('base64') ?? null,
    replays: audit.replaysOf(record.topic, deadLetterId(record)),
  };
}
