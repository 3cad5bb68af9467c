import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseLifecycleMessage, type Immutable, type LifecycleMessage } from '@baton/protocol';
import { AvroCodec, type AvroCodecSpec } from './avro-codec.js';
import { IN_PLACE } from './handoff-codec.js';
import { recordNameSubject, type AvroRecordSchema } from './handoff-avro-schema.js';
import type { SchemaRegistryClient } from './schema-registry-client.js';

const require = createRequire(import.meta.url);

/** The wire schema of the lifecycle messages, versioned as schemas/avro/lifecycle_message.avsc. */
export const LIFECYCLE_AVRO_SCHEMA = JSON.parse(
  readFileSync(require.resolve('@baton/schemas/avro/lifecycle_message.avsc'), 'utf8'),
) as AvroRecordSchema;

/** io.baton.lifecycle.v1.LifecycleMessage: one subject for every topic the messages travel on. */
export const LIFECYCLE_SUBJECT = recordNameSubject(LIFECYCLE_AVRO_SCHEMA);

export type LifecycleCodec = AvroCodec<Immutable<LifecycleMessage>>;

/** The lifecycle message codec: decoding validates against the JSON Schemas (parseLifecycleMessage). */
export const LIFECYCLE_CODEC_SPEC: AvroCodecSpec<Immutable<LifecycleMessage>> = {
  schema: LIFECYCLE_AVRO_SCHEMA,
  parse: (value) => parseLifecycleMessage(value, IN_PLACE),
};

export function createLifecycleCodec(registry: SchemaRegistryClient): Promise<LifecycleCodec> {
  return AvroCodec.create(registry, LIFECYCLE_CODEC_SPEC);
}
