import { parseHandoff, type HandoffMessage, type Immutable } from '@baton/protocol';
import { AvroCodec } from './avro-codec.js';
import { HANDOFF_AVRO_SCHEMA } from './handoff-avro-schema.js';
import type { SchemaRegistryClient } from './schema-registry-client.js';

export type HandoffCodec = AvroCodec<Immutable<HandoffMessage>>;

/** The handoff message codec: decoding validates against the JSON Schemas (parseHandoff). */
export function createHandoffCodec(registry: SchemaRegistryClient): Promise<HandoffCodec> {
  return AvroCodec.create(registry, { schema: HANDOFF_AVRO_SCHEMA, parse: parseHandoff });
}
