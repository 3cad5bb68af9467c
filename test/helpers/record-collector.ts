import { createKafka, TopicReader, type RecordHeaders } from '@baton/kafka';
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
  const records: CollectedRecord[] = [];
  const reader = new TopicReader({
    // Quiet: a collector follows topics through broker faults on purpose, and a test judges what it collected.
    kafka: createKafka({ brokers, clientId: uniqueName('collector'), logLevel: 'nothing' }),
    groupId: uniqueName('collector'),
    topics: [topic],
    // A short fetch wait: stop() waits for the fetch in flight.
    maxWaitMs: 100,
    onRecord: ({ partition, offset, key, value, headers }) => {
      records.push({ partition, offset, key, value, headers });
    },
  });
  await reader.start();
  return { records, stop: () => reader.stop() };
}
