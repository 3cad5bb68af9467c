import type { KafkaMessage } from 'kafkajs';
import { recordHeadersOf, type RecordHeaders } from '../headers/record-headers.js';

/** A record as a processor sees it. */
export interface ConsumedRecord {
  topic: string;
  partition: number;
  offset: string;
  /** The task_id by convention; records with the same key are processed in order. */
  key: string | null;
  value: Buffer | null;
  headers: RecordHeaders;
  timestamp: string;
}

/** A record a processor asks to publish; it is written in the same transaction as the consumed offset. */
export interface OutputRecord {
  topic: string;
  key: string;
  value: Buffer;
  headers?: RecordHeaders;
  /** Set only where co-partitioning demands it; otherwise the key decides. */
  partition?: number;
}

/** A record kafkajs delivered, as processors and readers see it. */
export function consumedRecord(topic: string, partition: number, message: KafkaMessage): ConsumedRecord {
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key?.toString() ?? null,
    value: message.value,
    headers: recordHeadersOf(message),
    timestamp: message.timestamp,
  };
}
