import {
  parseHandoff,
  parseHandoffOutcome,
  type HandoffMessage,
  type HandoffOutcome,
  type Immutable,
} from '@baton/protocol';
import { AvroCodec } from './avro-codec.js';
import { HANDOFF_AVRO_SCHEMA, HANDOFF_OUTCOME_AVRO_SCHEMA } from './handoff-avro-schema.js';
import type { SchemaRegistryClient } from './schema-registry-client.js';

export type HandoffCodec = AvroCodec<Immutable<HandoffMessage>>;

/** The handoff message codec: decoding validates against the JSON Schemas (parseHandoff). */
export function createHandoffCodec(registry: SchemaRegistryClient): Promise<HandoffCodec> {
  return AvroCodec.create(registry, { schema: HANDOFF_AVRO_SCHEMA, parse: parseHandoff });
}

export type OutcomeCodec = AvroCodec<Immutable<HandoffOutcome>>;

/** The outcome event codec for the events topic. */
export function createOutcomeCodec(registry: SchemaRegistryClient): Promise<OutcomeCodec> {
  return AvroCodec.create(registry, { schema: HANDOFF_OUTCOME_AVRO_SCHEMA, parse: parseHandoffOutcome });
}
