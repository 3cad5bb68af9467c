import { BatonError, isBatonError } from '@baton/errors';
import type { AcceptedHandoff } from '@baton/gateway-api';
import { buildHandoff, type HandoffDraft } from '@baton/protocol';
import type { HandoffPublisher } from '@baton/runtime';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Rejects after `ms` with `error`, leaving the work itself running. */
function deadline<T>(work: Promise<T>, ms: number, error: () => BatonError): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(error()), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

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

  async submit(body: unknown): Promise<AcceptedHandoff> {
    const sent = isObject(body) ? body : {};
    const draft = { ...sent, metadata: isObject(sent.metadata) ? sent.metadata : {} } as unknown as HandoffDraft;
    const message = buildHandoff(draft);
    const published = await deadline(
      this.publisher.publish(this.topic, message).catch((error: unknown) => {
        throw isBatonError(error)
          ? error
          : new BatonError('KAFKA_UNAVAILABLE', `could not publish: ${(error as Error).message}`, { cause: error });
      }),
      this.timeoutMs,
      () => new BatonError('KAFKA_UNAVAILABLE', `Kafka did not acknowledge the handoff within ${this.timeoutMs} ms`),
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
