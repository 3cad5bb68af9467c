import { RecordProducer, type KafkaClient, type OutputRecord, type RecordHeaders } from '@baton/kafka';
import { isTracingOn, withSendSpan } from '@baton/telemetry';
import type { HandoffCodec } from '@baton/wire';
import type { Handoff } from './handoff.js';
import { handoffRecord } from './handoff-record.js';
import { handoffSpanAttributes } from './handoff-span.js';

export interface PublishedRecord {
  topic: string;
  partition: number;
  offset: string;
}

export interface PublishOptions {
  extraHeaders?: RecordHeaders;
  /** The W3C traceparent of whoever asked (an HTTP client's): the handoff continues its trace. */
  traceparent?: string;
}

/**
 * Publishes handoffs from outside a consumer (gateway, CLI, tools, tests): an idempotent producer,
 * so its own retries never write a record twice, keyed by task_id with CloudEvents headers.
 * Resolves only when the broker has the record on all in-sync replicas. With tracing on, the
 * write is a `send <topic>` span, which starts the task's trace or continues the one given.
 */
export class HandoffPublisher {
  private readonly producer: RecordProducer;

  constructor(
    kafka: KafkaClient,
    private readonly codec: HandoffCodec,
  ) {
    this.producer = new RecordProducer(kafka);
  }

  async publish(topic: string, message: Handoff, options: PublishOptions = {}): Promise<PublishedRecord> {
    const record = handoffRecord(this.codec, topic, message, {
      extraHeaders: options.extraHeaders,
      parentTraceparent: options.traceparent,
    });
    if (!isTracingOn()) return this.send(record);
    return withSendSpan(record, options.traceparent, (traced, span) => {
      span.setAttributes(handoffSpanAttributes(message, undefined));
      return this.send(traced);
    });
  }

  async close(): Promise<void> {
    await this.producer.disconnect();
  }

  private async send(record: OutputRecord): Promise<PublishedRecord> {
    const [written] = await this.producer.send([record]);
    return { topic: record.topic, partition: written?.partition ?? -1, offset: written?.baseOffset ?? '-1' };
  }
}
