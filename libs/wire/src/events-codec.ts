import { BatonError } from '@baton/errors';
import { parseStagedContext, type Immutable, type StagedContext, type TaskEvent } from '@baton/protocol';
import { AvroCodec, type AvroCodecSpec } from './avro-codec.js';
import { readWireFormat } from './confluent-wire-format.js';
import { OUTCOME_CODEC_SPEC, type OutcomeCodec } from './handoff-codec.js';
import { HANDOFF_OUTCOME_AVRO_SCHEMA, STAGED_CONTEXT_AVRO_SCHEMA, recordNameSubject } from './handoff-avro-schema.js';
import { LIFECYCLE_AVRO_SCHEMA, LIFECYCLE_CODEC_SPEC, type LifecycleCodec } from './lifecycle-codec.js';
import type { SchemaRegistryClient } from './schema-registry-client.js';
import type { ReadFacts, WireStages } from './wire-stage.js';

export type StagedContextCodec = AvroCodec<Immutable<StagedContext>>;

/** The staged context codec: decoding validates against staged_context.schema.json. */
export const STAGED_CONTEXT_CODEC_SPEC: AvroCodecSpec<Immutable<StagedContext>> = {
  schema: STAGED_CONTEXT_AVRO_SCHEMA,
  parse: parseStagedContext,
};

export function createStagedContextCodec(registry: SchemaRegistryClient): Promise<StagedContextCodec> {
  return AvroCodec.create(registry, STAGED_CONTEXT_CODEC_SPEC);
}

/**
 * The events topic carries three record types, told apart by the record name of the writer schema
 * their id names (any version of the subject, so older writers still decode).
 */
export class EventsCodec {
  private constructor(
    private readonly registry: SchemaRegistryClient,
    readonly outcome: OutcomeCodec,
    readonly lifecycle: LifecycleCodec,
    readonly staged: StagedContextCodec,
  ) {}

  /** The three codecs, registered. */
  static async create(registry: SchemaRegistryClient): Promise<EventsCodec> {
    const codec = EventsCodec.unregistered(registry);
    await codec.register();
    return codec;
  }

  /**
   * The three codecs, decoding at once and encoding once `register()` has resolved; `stages` seal
   * the records it writes and open those it decodes (a tracker signs and verifies lifecycle
   * messages and verifies outcome events; a sender encrypts the handoff a staged context carries).
   */
  static unregistered(registry: SchemaRegistryClient, stages: WireStages = {}): EventsCodec {
    return new EventsCodec(
      registry,
      new AvroCodec(registry, OUTCOME_CODEC_SPEC, stages.outcome),
      new AvroCodec(registry, LIFECYCLE_CODEC_SPEC, stages.lifecycle),
      new AvroCodec(registry, STAGED_CONTEXT_CODEC_SPEC, stages.staged),
    );
  }

  async register(): Promise<void> {
    await Promise.all([this.outcome.register(), this.lifecycle.register(), this.staged.register()]);
  }

  /**
   * Decodes and checks one record value; an unknown record type is WIRE_SCHEMA_UNKNOWN. `facts`,
   * the record's, let the outcome codec's stages check the seal its headers carry.
   */
  async decode(bytes: Buffer, facts?: ReadFacts): Promise<TaskEvent> {
    const { schemaId } = readWireFormat(bytes);
    const name = (await this.registry.avroType(schemaId)).name;
    switch (name) {
      case recordNameSubject(HANDOFF_OUTCOME_AVRO_SCHEMA):
        return { kind: 'outcome', value: await this.outcome.read(bytes, facts) };
      case recordNameSubject(LIFECYCLE_AVRO_SCHEMA):
        return { kind: 'lifecycle', value: await this.lifecycle.decode(bytes) };
      case recordNameSubject(STAGED_CONTEXT_AVRO_SCHEMA):
        return { kind: 'staged', value: await this.staged.decode(bytes) };
      default:
        throw new BatonError(
          'WIRE_RECORD_TYPE_UNEXPECTED',
          `schema ${schemaId} (${name ?? 'unnamed'}) is not an events record`,
          {
            details: { schemaId },
          },
        );
    }
  }
}
