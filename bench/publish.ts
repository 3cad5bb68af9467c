import type { OutputRecord, RecordProducer } from '@baton/kafka';

/** Records go out in produce requests of this many, as a busy client's would. */
const BATCH = 500;

/** The message_id of a handoff record: its CloudEvents id header. */
export function messageIdOf(record: OutputRecord): string {
  const id = record.headers?.ce_id;
  if (id === undefined) throw new Error(`record for ${record.topic} has no ce_id header`);
  return id;
}

/**
 * Sends `records`' bytes, keys and headers to `topic` as fast as the broker takes them, BATCH per
 * request (acks all); returns when each was handed to the producer, by message_id.
 */
export async function publishAll(
  producer: RecordProducer,
  topic: string,
  records: readonly OutputRecord[],
): Promise<Map<string, number>> {
  const sentAt = new Map<string, number>();
  for (let start = 0; start < records.length; start += BATCH) {
    const batch = records.slice(start, start + BATCH);
    const now = Date.now();
    for (const record of batch) sentAt.set(messageIdOf(record), now);
    await producer.send(
      batch.map((record) => ({ topic, key: record.key, value: record.value, headers: record.headers })),
    );
  }
  return sentAt;
}
