import { createKafka, readHeaders, type RecordHeaders } from '@baton/kafka';
import { uniqueName } from './unique-name.js';

export interface CollectedRecord {
  partition: number;
  offset: string;
  key: string | null;
  value: Buffer | null;
  headers: RecordHeaders;
}

export interface RecordCollector {
  readonly records: CollectedRecord[];
  stop(): Promise<void>;
}

/**
 * Reads `topic` from the beginning with a group of its own, committed records only, and keeps
 * every record it sees, for tests to wait on and assert.
 */
export async function collectRecords(brokers: string[], topic: string): Promise<RecordCollector> {
  const consumer = createKafka({ brokers, clientId: uniqueName('collector') }).consumer({
    groupId: uniqueName('collector'),
    maxWaitTimeInMs: 100,
  });
  const records: CollectedRecord[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ partition, message }) => {
      records.push({
        partition,
        offset: message.offset,
        key: message.key?.toString() ?? null,
        value: message.value,
        headers: readHeaders(message.headers),
      });
    },
  });
  return { records, stop: () => consumer.disconnect() };
}
