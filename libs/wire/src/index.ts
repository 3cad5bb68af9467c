export { AvroCodec, type AvroCodecSpec, type EncodedValue } from './avro-codec.js';
export {
  createHandoffCodec,
  createOutcomeCodec,
  HANDOFF_CODEC_SPEC,
  type HandoffCodec,
  type OutcomeCodec,
} from './handoff-codec.js';
export { SchemaRegistryClient, type Compatibility, type SchemaRegistryOptions } from './schema-registry-client.js';
export { registryOptionsFromEnv } from './registry-options-from-env.js';
export { memorySchemaRegistry } from './memory-schema-registry.js';
export {
  frameWireFormat,
  readWireFormat,
  MAGIC_BYTE,
  WIRE_HEADER_BYTES,
  type WireFrame,
} from './confluent-wire-format.js';
export {
  HANDOFF_AVRO_SCHEMA,
  HANDOFF_SUBJECT,
  HANDOFF_OUTCOME_AVRO_SCHEMA,
  avroParseOptions,
  parseAvroSchema,
  recordNameSubject,
  type AvroRecordSchema,
} from './handoff-avro-schema.js';
export { BATON_LOGICAL_TYPES } from './avro-logical-types.js';
export {
  createLifecycleCodec,
  LIFECYCLE_AVRO_SCHEMA,
  LIFECYCLE_SUBJECT,
  type LifecycleCodec,
} from './lifecycle-codec.js';
export { EventsCodec, createStagedContextCodec, type StagedContextCodec } from './events-codec.js';
export { STAGED_CONTEXT_AVRO_SCHEMA } from './handoff-avro-schema.js';
export { serviceCodecs, type ServiceCodecs } from './service-codecs.js';
export { openWith, sealWith, type ReadFacts, type WireStage, type WireStages } from './wire-stage.js';
