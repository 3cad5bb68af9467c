import { createProducer, type RecordHeaders } from '@baton/kafka';
import type { Kafka, Producer } from '@baton/kafka';
import type { HandoffCodec } from '@baton/wire';
import type { Handoff } from './handoff-processor.js';
import { handoffRecord } from './handoff-record.js';

export interface PublishedRecord {
  topic: string;
  partition: number;
  offset: string;
}

/**
 * Publishes handoffs from outside a consumer (gateway, CLI, tools, tests): an idempotent producer,
 * so its own retries never write a record twice, keyed by task_id with CloudEvents headers.
 * Resolves only when the broker has the record on all in-sync replicas.
 */
export class HandoffPublisher {
  private readonly producer: Producer;
  private connected: Promise<void> | undefined;

  constructor(
    kafka: Kafka,
    private readonly codec: HandoffCodec,
  ) {
    this.producer = createProducer(kafka, { idempotent: true, maxInFlightRequests: 1 });
  }

  async publish(topic: string, message: Handoff, extraHeaders?: RecordHeaders): Promise<PublishedRecord> {
    this.connected ??= this.producer.connect();
    await this.connected;
    const record = handoffRecord(this.codec, topic, message, { extraHeaders });
    const [result] = await this.producer.send({
      topic,
      acks: -1,
      messages: [{ key: record.key, value: record.value, headers: record.headers }],
    });
    return { topic, partition: result?.partition ?? -1, offset: result?.baseOffset ?? '-1' };
  }

  async close(): Promise<void> {
    if (this.connected) await this.producer.disconnect();
  }
}
