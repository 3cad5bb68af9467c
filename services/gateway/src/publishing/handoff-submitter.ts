import type { AcceptedHandoff } from '@baton/gateway-api';
import type { HandoffPublisher } from '@baton/runtime';
import { handoffFromBody } from './handoff-from-body.js';
import { kafkaDeadline, kafkaFailure } from './kafka-deadline.js';

/**
 * Turns what a client sent into a published handoff: the builder fills message_id, timestamp,
 * protocol_version and priority and validates (HandoffValidationError lists every issue), then the
 * publisher writes it to the inbound topic with acks from all in-sync replicas. Only then is it
 * accepted; a publish that fails or outlasts the deadline is KAFKA_UNAVAILABLE (503), and a client
 * retrying with the same message_id is safe, since consumers deduplicate by it.
 */
export class HandoffSubmitter {
  constructor(
    private readonly publisher: HandoffPublisher,
    private readonly topic: string,
    private readonly timeoutMs: number,
  ) {}

  /** `traceparent`: the client's W3C trace context, which the handoff's trace continues. */
  async submit(body: unknown, traceparent?: string): Promise<AcceptedHandoff> {
    const message = handoffFromBody(body);
    const published = await kafkaDeadline(
      this.publisher.publish(this.topic, message, { traceparent }).catch((error: unknown) => {
        throw kafkaFailure(error, 'publish');
      }),
      this.timeoutMs,
      'the handoff',
    );
    return {
      message_id: message.metadata.message_id,
      task_id: message.metadata.task_id,
      topic: published.topic,
      partition: published.partition,
      offset: published.offset,
    };
  }
}
