import {
  parseHandoff,
  parseHandoffOutcome,
  type HandoffMessage,
  type HandoffOutcome,
  type Immutable,
  type ParseOptions,
} from '@baton/protocol';
import { AvroCodec, type AvroCodecSpec } from './avro-codec.js';
import { HANDOFF_AVRO_SCHEMA, HANDOFF_OUTCOME_AVRO_SCHEMA } from './handoff-avro-schema.js';
import type { SchemaRegistryClient } from './schema-registry-client.js';

export type HandoffCodec = AvroCodec<Immutable<HandoffMessage>>;

/** What the codecs' parse functions are told: a decoded value is theirs to freeze. */
export const IN_PLACE: ParseOptions = Object.freeze({ inPlace: true });

/**
 * The handoff message codec: decoding validates against the JSON Schemas (parseHandoff), freezing
 * the decoder's fresh output where it is (the codec gives it up; see ParseOptions).
 */
export const HANDOFF_CODEC_SPEC: AvroCodecSpec<Immutable<HandoffMessage>> = {
  schema: HANDOFF_AVRO_SCHEMA,
  parse: (value) => parseHandoff(value, IN_PLACE),
};

export function createHandoffCodec(registry: SchemaRegistryClient): Promise<HandoffCodec> {
  return AvroCodec.create(registry, HANDOFF_CODEC_SPEC);
}

export type OutcomeCodec = AvroCodec<Immutable<HandoffOutcome>>;

/** The outcome event codec for the events topic. */
export const OUTCOME_CODEC_SPEC: AvroCodecSpec<Immutable<HandoffOutcome>> = {
  schema: HANDOFF_OUTCOME_AVRO_SCHEMA,
  parse: (value) => parseHandoffOutcome(value, IN_PLACE),
};

export function createOutcomeCodec(registry: SchemaRegistryClient): Promise<OutcomeCodec> {
  return AvroCodec.create(registry, OUTCOME_CODEC_SPEC);
}
