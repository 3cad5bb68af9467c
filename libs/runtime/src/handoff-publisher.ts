import { RecordProducer, type KafkaClient, type RecordHeaders } from '@baton/kafka';
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
  private readonly producer: RecordProducer;

  constructor(
    kafka: KafkaClient,
    private readonly codec: HandoffCodec,
  ) {
    this.producer = new RecordProducer(kafka);
  }

  async publish(topic: string, message: Handoff, extraHeaders?: RecordHeaders): Promise<PublishedRecord> {
    const record = handoffRecord(this.codec, topic, message, { extraHeaders });
    const [written] = await this.producer.send([record]);
    return { topic, partition: written?.partition ?? -1, offset: written?.baseOffset ?? '-1' };
  }

  async close(): Promise<void> {
    await this.producer.disconnect();
  }
}
