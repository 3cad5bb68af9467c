import { randomUUID } from 'node:crypto';
import { BatonError } from '@baton/errors';
import { DLQ_HEADERS, REPLAY_HEADERS, type ConsumedRecord, type OutputRecord, type RecordHeaders } from '@baton/kafka';
import type { HandoffMessage, Immutable } from '@baton/protocol';
import type { HandoffCodec } from '@baton/wire';

const DEAD_LETTER_HEADER_NAMES = new Set<string>(Object.values(DLQ_HEADERS));

/** The original headers: what the dead-lettering added is taken off, as is an earlier replay's mark. */
export function originalHeaders(headers: RecordHeaders): RecordHeaders {
  return Object.fromEntries(
    Object.entries(headers).filter(
      ([name]) => !DEAD_LETTER_HEADER_NAMES.has(name) && !(Object.values(REPLAY_HEADERS) as string[]).includes(name),
    ),
  );
}

export interface ReplayMark {
  replayId: string;
  actor: string;
  /** `<dlq topic>/<id>` */
  from: string;
}

export interface ReplayedRecord {
  record: OutputRecord;
  messageId: string | undefined;
}

/**
 * The record a replay writes: the dead letter's bytes and original headers, marked as a replay.
 * With `newMessageId` the handoff is decoded and re-encoded with a fresh message_id, so consumers
 * that processed the old id take it as a new message; bytes that do not decode cannot get one.
 * Without it the bytes, and so the sender's signature, are those of the dead letter: the replay's
 * marks are headers, outside what is signed.
 */
export async function replayedRecord(
  letter: ConsumedRecord,
  target: string,
  mark: ReplayMark,
  options: { newMessageId: boolean; codec: HandoffCodec },
): Promise<ReplayedRecord> {
  const headers: RecordHeaders = {
    ...originalHeaders(letter.headers),
    [REPLAY_HEADERS.id]: mark.replayId,
    [REPLAY_HEADERS.actor]: mark.actor,
    [REPLAY_HEADERS.from]: mark.from,
  };
  if (!options.newMessageId) {
    return {
      record: { topic: target, key: letter.key ?? '', value: letter.value ?? Buffer.alloc(0), headers },
      messageId: letter.headers.ce_id,
    };
  }
  if (letter.value === null) {
    throw new BatonError('WIRE_FORMAT_INVALID', 'the dead letter has no value to give a new message_id', {
      path: '/new_message_id',
    });
  }
  const handoff = (await options.codec.decodeUnchecked(letter.value)) as Immutable<HandoffMessage>;
  const messageId = randomUUID();
  // A new message_id is a new message: the sender's signature no longer covers it, so it goes and
  // the gateway's codec signs it with the gateway's key (which must sign for that sender).
  const metadata = { ...handoff.metadata, message_id: messageId };
  delete metadata.signature;
  const renewed = { ...handoff, metadata };
  const encoded = options.codec.encodeRecord(renewed);
  return {
    record: {
      topic: target,
      key: letter.key ?? renewed.metadata.task_id,
      value: encoded.value,
      headers: { ...headers, ce_id: messageId, ...encoded.headers },
    },
    messageId,
  };
}
