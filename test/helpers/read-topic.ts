import { createKafka, fetchEndOffsets, readHeaders } from '@baton/kafka';
import { rawKafkajs } from './raw-kafkajs.js';
import type { CollectedRecord } from './record-collector.js';
import { uniqueName } from './unique-name.js';

/** A topic's log as a final check needs it, each partition in offset order. */
export interface TopicLog {
  /** Non-transactional records and records of committed transactions: what read_committed must deliver. */
  committed: CollectedRecord[];
  /** Every data record, those of aborted and of unfinished transactions too. */
  written: CollectedRecord[];
}

/** What kafkajs keeps of a fetched record before its own filtering (kafkajs 2.2.4 internals). */
interface RawRecord {
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, Buffer | Buffer[] | undefined>;
  isControlRecord: boolean;
  batchContext: { producerId: string; inTransaction: boolean };
}

/** A control record's key is its version (int16) then its type (int16): 0 abort, 1 commit. */
const COMMIT_MARKER = 1;

/**
 * Every record of `topic` up to the end offsets it had when called, read by a group of its own
 * that never commits, so a final check sees the log once, as it is.
 *
 * Committed records are told apart here, from the transaction markers, and not by kafkajs's
 * read_committed: kafkajs 2.2.4 (`filterAbortedMessages`) compares a record only with the first
 * aborted transaction the broker lists for the fetch, and the broker lists them in abort order,
 * not by first offset (the Java client sorts them). So when two producers' aborted transactions
 * overlap in a partition, the records of the one that began first and was aborted last are
 * delivered as if committed. A producer has one transaction open at a time, so its records
 * belong to the transaction its next marker ends.
 */
export async function readTopicLog(brokers: string[], topic: string, timeoutMs = 60_000): Promise<TopicLog> {
  const raw = new Map<number, Map<string, RawRecord>>();
  await readToEnd(brokers, topic, true, timeoutMs, (partition, records) => {
    const log = raw.get(partition) ?? new Map<string, RawRecord>();
    raw.set(partition, log);
    for (const record of records) log.set(record.offset, record);
  });
  const committed: CollectedRecord[] = [];
  const written: CollectedRecord[] = [];
  for (const [partition, log] of [...raw].sort(([a], [b]) => a - b)) {
    const open = new Map<string, CollectedRecord[]>();
    const inPartition: CollectedRecord[] = [];
    for (const record of [...log.values()].sort(byOffset)) {
      const { producerId, inTransaction } = record.batchContext;
      if (record.isControlRecord) {
        const ended = open.get(producerId) ?? [];
        open.delete(producerId);
        if (record.key?.readInt16BE(2) === COMMIT_MARKER) inPartition.push(...ended);
        continue;
      }
      const collected = toCollected(partition, record);
      written.push(collected);
      if (!inTransaction) inPartition.push(collected);
      else open.set(producerId, [...(open.get(producerId) ?? []), collected]);
    }
    committed.push(...inPartition.sort(byOffset));
  }
  return { committed, written };
}

/** What kafkajs's own read_committed delivers, to compare with `readTopicLog(...).committed`. */
export async function readCommittedByKafkajs(
  brokers: string[],
  topic: string,
  timeoutMs = 60_000,
): Promise<CollectedRecord[]> {
  const delivered: CollectedRecord[] = [];
  await readToEnd(
    brokers,
    topic,
    false,
    timeoutMs,
    (partition, records) => {
      for (const record of records) if (!record.isControlRecord) delivered.push(toCollected(partition, record));
    },
    true,
  );
  return delivered;
}

/**
 * Reads `topic` from its first offset until every partition's position has passed the end offset
 * it had when called, and hands each fetched batch's records over: all of them, control records
 * included, or (with `filtered`) those kafkajs delivers to an application.
 */
async function readToEnd(
  brokers: string[],
  topic: string,
  readUncommitted: boolean,
  timeoutMs: number,
  onRecords: (partition: number, records: RawRecord[]) => void,
  filtered = false,
): Promise<void> {
  const remaining = await fetchEndOffsets(createKafka({ brokers, clientId: uniqueName('read-topic') }), topic);
  if (remaining.size === 0) return;
  // kafkajs itself: what it fetched before its own filtering, uncommitted records and markers included.
  const consumer = rawKafkajs(brokers, uniqueName('read-topic')).consumer({
    groupId: uniqueName('read-topic'),
    readUncommitted,
    maxWaitTimeInMs: 100,
  });
  let timer: NodeJS.Timeout | undefined;
  // The position comes from batch events, not from the last record: a partition written by
  // transactions ends in a marker, which takes an offset but is never delivered.
  const caughtUp = new Promise<void>((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${topic} not read to its end within ${timeoutMs} ms`)), timeoutMs);
    consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
      const end = remaining.get(payload.partition);
      if (end === undefined || BigInt(payload.lastOffset) + 1n < end) return;
      remaining.delete(payload.partition);
      if (remaining.size === 0) resolve();
    });
  });
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        const records = filtered
          ? (batch.messages as unknown as RawRecord[])
          : (batch as unknown as { messagesWithinOffset?: RawRecord[] }).messagesWithinOffset;
        if (records === undefined) throw new Error('kafkajs no longer keeps a batch’s messagesWithinOffset');
        onRecords(batch.partition, records);
      },
    });
    await caughtUp;
  } finally {
    clearTimeout(timer);
    await consumer.disconnect();
  }
}

function toCollected(partition: number, record: RawRecord): CollectedRecord {
  return {
    partition,
    offset: record.offset,
    key: record.key?.toString() ?? null,
    value: record.value,
    headers: readHeaders(record.headers),
  };
}

function byOffset(a: { offset: string }, b: { offset: string }): number {
  const delta = BigInt(a.offset) - BigInt(b.offset);
  return delta < 0n ? -1 : delta > 0n ? 1 : 0;
}
