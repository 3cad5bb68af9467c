import { BatonError } from '@baton/errors';
import type {
  ConsumedRecord,
  DeadLetterContext,
  MessageProcessor,
  OutputRecord,
  ProcessingContext,
} from '@baton/kafka';
import type { HandoffMessage, Immutable } from '@baton/protocol';
import type { HandoffCodec } from '@baton/wire';
import { BoundedLabelValues, handoffLabels } from './handoff-labels.js';

export type Handoff = Immutable<HandoffMessage>;

export interface HandoffProcessorOptions {
  codec: HandoffCodec;
  handle(message: Handoff, context: ProcessingContext): Promise<OutputRecord[]>;
  deadLetterOutputs?(context: DeadLetterContext<Handoff>): OutputRecord[];
}

/**
 * Reads each record as a handoff: Avro through the registry, then the JSON Schemas. The message's
 * own failure_handling_strategy.retry_count bounds its retries, and its expiration_time is honoured.
 * Its handoff_type and issue_category label what the consumer reports (metrics).
 */
export function handoffProcessor(options: HandoffProcessorOptions): MessageProcessor<Handoff> {
  const categories = new BoundedLabelValues();
  return {
    async decode(record: ConsumedRecord) {
      if (record.value === null) throw new BatonError('WIRE_FORMAT_INVALID', 'record has no value');
      const message = await options.codec.decode(record.value);
      return {
        value: message,
        messageId: message.metadata.message_id,
        retryLimit: message.instructions.failure_handling_strategy?.retry_count,
        expiresAt: message.metadata.expiration_time,
        labels: handoffLabels(message, categories),
      };
    },
    process: (message, context) => options.handle(message.value, context),
    deadLetterOutputs: options.deadLetterOutputs,
  };
}
