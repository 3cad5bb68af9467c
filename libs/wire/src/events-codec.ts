import { BatonError } from '@baton/errors';
import { parseStagedContext, type Immutable, type StagedContext, type TaskEvent } from '@baton/protocol';
import { AvroCodec } from './avro-codec.js';
import { readWireFormat } from './confluent-wire-format.js';
import { createOutcomeCodec, type OutcomeCodec } from './handoff-codec.js';
import { HANDOFF_OUTCOME_AVRO_SCHEMA, STAGED_CONTEXT_AVRO_SCHEMA, recordNameSubject } from './handoff-avro-schema.js';
import { createLifecycleCodec, LIFECYCLE_AVRO_SCHEMA, type LifecycleCodec } from './lifecycle-codec.js';
import type { SchemaRegistryClient } from './schema-registry-client.js';

export type StagedContextCodec = AvroCodec<Immutable<StagedContext>>;

/** The staged context codec: decoding validates against staged_context.schema.json. */
export function createStagedContextCodec(registry: SchemaRegistryClient): Promise<StagedContextCodec> {
  return AvroCodec.create(registry, { schema: STAGED_CONTEXT_AVRO_SCHEMA, parse: parseStagedContext });
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

  static async create(registry: SchemaRegistryClient): Promise<EventsCodec> {
    const [outcome, lifecycle, staged] = await Promise.all([
      createOutcomeCodec(registry),
      createLifecycleCodec(registry),
      createStagedContextCodec(registry),
    ]);
    return new EventsCodec(registry, outcome, lifecycle, staged);
  }

  /** Decodes and checks one record value; an unknown record type is WIRE_SCHEMA_UNKNOWN. */
  async decode(bytes: Buffer): Promise<TaskEvent> {
    const { schemaId } = readWireFormat(bytes);
    const name = (await this.registry.avroType(schemaId)).name;
    switch (name) {
      case recordNameSubject(HANDOFF_OUTCOME_AVRO_SCHEMA):
        return { kind: 'outcome', value: await this.outcome.decode(bytes) };
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
