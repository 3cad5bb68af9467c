import {
  createHandoffCodec,
  createLifecycleCodec,
  createOutcomeCodec,
  createStagedContextCodec,
  memorySchemaRegistry,
  type HandoffCodec,
  type LifecycleCodec,
  type OutcomeCodec,
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
  const registry = memorySchemaRegistry();
  const [codec, outcomeCodec, lifecycleCodec, stagedCodec] = await Promise.all([
    createHandoffCodec(registry),
    createOutcomeCodec(registry),
    createLifecycleCodec(registry),
    createStagedContextCodec(registry),
  ]);
  return { codec, outcomeCodec, lifecycleCodec, stagedCodec };
}
