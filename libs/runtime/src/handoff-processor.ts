import { BatonError, isPromiseLike, type MaybePromise } from '@baton/errors';
import type {
  ConsumedRecord,
  DeadLetterContext,
  DecodedMessage,
  MessageProcessor,
  OutputRecord,
  ProcessingContext,
} from '@baton/kafka';
import type { HandoffMessage, Immutable } from '@baton/protocol';
import { isTracingOn } from '@baton/telemetry';
import type { HandoffCodec } from '@baton/wire';
import { HandoffLabeller } from './handoff-labels.js';
import { tracedHandle } from './handoff-span.js';

export type Handoff = Immutable<HandoffMessage>;

export interface HandoffProcessorOptions {
  codec: HandoffCodec;
  /**
   * The handoff of a record that does not carry it in its value (a claim check: the handoff is
   * stored elsewhere and the record names it); undefined, at once, for an ordinary record, which
   * is decoded. Rejects with a BatonError when the handoff cannot be had, like decoding does.
   */
  resolve?(record: ConsumedRecord): Promise<Handoff> | undefined;
  /** The handoff's outputs: a Promise only when the handling has to wait for something. */
  handle(message: Handoff, context: ProcessingContext): MaybePromise<OutputRecord[]>;
  /** The agent (or `router`) that handles the handoffs, named on their spans as baton.agent_id. */
  agentId?: string;
  deadLetterOutputs?(context: DeadLetterContext<Handoff>): OutputRecord[];
  /** See MessageProcessor.deadLetterValue. */
  deadLetterValue?(context: DeadLetterContext<Handoff>): Buffer | undefined;
  /** See MessageProcessor.readsOwnOutputs. */
  readsOwnOutputs?: boolean;
}

function readValue(codec: HandoffCodec, record: ConsumedRecord): MaybePromise<Handoff> {
  if (record.value === null) throw new BatonError('WIRE_FORMAT_INVALID', 'record has no value');
  return codec.read(record.value);
}

/**
 * Reads each record as a handoff: Avro through the registry, then the JSON Schemas. The message's
 * own failure_handling_strategy.retry_count bounds its retries, and its expiration_time is honoured.
 * Its handoff_type and issue_category label what the consumer reports (metrics). A record is
 * decoded at once when nothing has to be waited for (see AvroCodec.read).
 */
export function handoffProcessor(options: HandoffProcessorOptions): MessageProcessor<Handoff> {
  const labeller = new HandoffLabeller();
  const decoded = (message: Handoff): DecodedMessage<Handoff> => ({
    value: message,
    messageId: message.metadata.message_id,
    retryLimit: message.instructions.failure_handling_strategy?.retry_count,
    expiresAt: message.metadata.expiration_time,
    labels: labeller.labelsOf(message),
  });
  return {
    decode(record: ConsumedRecord) {
      const handoff = options.resolve?.(record) ?? readValue(options.codec, record);
      return isPromiseLike(handoff) ? Promise.resolve(handoff).then(decoded) : decoded(handoff);
    },
    process: (message, context) =>
      isTracingOn()
        ? tracedHandle(message.value, options.agentId, () => options.handle(message.value, context))
        : options.handle(message.value, context),
    deadLetterOutputs: options.deadLetterOutputs,
    deadLetterValue: options.deadLetterValue,
    readsOwnOutputs: options.readsOwnOutputs,
  };
}
