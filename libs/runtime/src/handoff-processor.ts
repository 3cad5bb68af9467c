import { BatonError, isPromiseLike, type MaybePromise } from '@baton/errors';
import {
  headerOf,
  type ConsumedRecord,
  type DeadLetterContext,
  type DecodedMessage,
  type MessageProcessor,
  type OutputRecord,
  type ProcessingContext,
} from '@baton/kafka';
import { isTracingOn } from '@baton/telemetry';
import type { HandoffCodec, ReadFacts } from '@baton/wire';
import { HandoffLabeller } from './handoff-labels.js';
import { tracedHandle } from './handoff-span.js';
import type { Handoff } from './handoff.js';

export interface HandoffProcessorOptions {
  codec: HandoffCodec;
  /**
   * The handoff of a record that does not carry it in its value (a claim check: the handoff is
   * stored elsewhere and the record names it); undefined, at once, for an ordinary record, which
   * is decoded. Rejects with a BatonError when the handoff cannot be had, like decoding does.
   */
  resolve?(record: ConsumedRecord): Promise<Handoff> | undefined;
  /**
   * The handoff's outputs: a Promise only when the handling has to wait for something. `facts`
   * say what reading found, such as a signature verified (a claim check's handoff has none).
   */
  handle(message: Handoff, context: ProcessingContext, facts: ReadFacts): MaybePromise<OutputRecord[]>;
  /** The agent (or `router`) that handles the handoffs, named on their spans as baton.agent_id. */
  agentId?: string;
  deadLetterOutputs?(context: DeadLetterContext<Handoff>): OutputRecord[];
  /** See MessageProcessor.deadLetterValue. */
  deadLetterValue?(context: DeadLetterContext<Handoff>): Buffer | undefined;
  /** See MessageProcessor.readsOwnOutputs. */
  readsOwnOutputs?: boolean;
}

function readValue(codec: HandoffCodec, record: ConsumedRecord, facts: ReadFacts): MaybePromise<Handoff> {
  if (record.value === null) throw new BatonError('WIRE_FORMAT_INVALID', 'record has no value');
  return codec.read(record.value, facts);
}

/**
 * The read facts of a record: its value, and its headers read one at a time as a stage asks. One
 * object per record, its method on the prototype: a handoff holds its facts until its commit.
 */
class RecordFacts implements ReadFacts {
  readonly value: Buffer;
  verified?: { senderId: string };
  digest?: Buffer;

  constructor(private readonly record: ConsumedRecord) {
    this.value = record.value ?? Buffer.alloc(0);
  }

  header(name: string): string | undefined {
    return headerOf(this.record, name);
  }
}

export function recordFacts(record: ConsumedRecord): ReadFacts {
  return new RecordFacts(record);
}

/**
 * The facts of every record a codec reads without looking at them (no stage verifies): none is
 * written, and a record is not given an object of its own that it would hold until its commit.
 */
const NO_FACTS: ReadFacts = Object.freeze({ value: Buffer.alloc(0), header: () => undefined });

interface DecodedHandoff extends DecodedMessage<Handoff> {
  facts: ReadFacts;
}

/**
 * Reads each record as a handoff: Avro through the registry, then the JSON Schemas. The message's
 * own failure_handling_strategy.retry_count bounds its retries, and its expiration_time is honoured.
 * Its handoff_type and issue_category label what the consumer reports (metrics). A record is
 * decoded at once when nothing has to be waited for (see AvroCodec.read).
 */
export function handoffProcessor(options: HandoffProcessorOptions): MessageProcessor<Handoff> {
  const labeller = new HandoffLabeller();
  const decoded = (message: Handoff, facts: ReadFacts): DecodedHandoff => ({
    value: message,
    messageId: message.metadata.message_id,
    retryLimit: message.instructions.failure_handling_strategy?.retry_count,
    expiresAt: message.metadata.expiration_time,
    labels: labeller.labelsOf(message),
    facts,
  });
  return {
    decode(record: ConsumedRecord) {
      const facts = options.codec.readsFacts ? recordFacts(record) : NO_FACTS;
      const handoff = options.resolve?.(record) ?? readValue(options.codec, record, facts);
      return isPromiseLike(handoff)
        ? Promise.resolve(handoff).then((message) => decoded(message, facts))
        : decoded(handoff, facts);
    },
    process: (message, context) => {
      // The object decode made: process is handed what decode returned.
      const { facts } = message as DecodedHandoff;
      return isTracingOn()
        ? tracedHandle(message.value, options.agentId, () => options.handle(message.value, context, facts))
        : options.handle(message.value, context, facts);
    },
    deadLetterOutputs: options.deadLetterOutputs,
    deadLetterValue: options.deadLetterValue,
    readsOwnOutputs: options.readsOwnOutputs,
  };
}
