import {
  createHandoffCodec,
  createLifecycleCodec,
  createOutcomeCodec,
  createStagedContextCodec,
  parseAvroSchema,
  type AvroRecordSchema,
  type HandoffCodec,
  type LifecycleCodec,
  type OutcomeCodec,
  type SchemaRegistryClient,
  type StagedContextCodec,
} from '@baton/wire';

/** For unit tests: the real codecs, over a registry held in memory, so no schema registry runs. */
export interface TestCodecs {
  codec: HandoffCodec;
  outcomeCodec: OutcomeCodec;
  lifecycleCodec: LifecycleCodec;
  stagedCodec: StagedContextCodec;
}

export async function testCodecs(): Promise<TestCodecs> {
  const schemas: AvroRecordSchema[] = [];
  const registry = {
    register: async (schema: AvroRecordSchema) => schemas.push(schema),
    avroType: async (id: number) => parseAvroSchema(schemas[id - 1] as AvroRecordSchema),
  } as unknown as SchemaRegistryClient;
  const [codec, outcomeCodec, lifecycleCodec, stagedCodec] = await Promise.all([
    createHandoffCodec(registry),
    createOutcomeCodec(registry),
    createLifecycleCodec(registry),
    createStagedContextCodec(registry),
  ]);
  return { codec, outcomeCodec, lifecycleCodec, stagedCodec };
}
