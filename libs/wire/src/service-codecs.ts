import { AvroCodec } from './avro-codec.js';
import { STAGED_CONTEXT_CODEC_SPEC, type StagedContextCodec } from './events-codec.js';
import { HANDOFF_CODEC_SPEC, OUTCOME_CODEC_SPEC, type HandoffCodec, type OutcomeCodec } from './handoff-codec.js';
import { LIFECYCLE_CODEC_SPEC, type LifecycleCodec } from './lifecycle-codec.js';
import type { SchemaRegistryClient } from './schema-registry-client.js';
import type { WireStages } from './wire-stage.js';

/** Every codec a handoff service writes with, built without the registry. */
export interface ServiceCodecs {
  codec: HandoffCodec;
  outcomeCodec: OutcomeCodec;
  lifecycleCodec: LifecycleCodec;
  stagedCodec: StagedContextCodec;
  /** Registers the four schemas: the codecs encode once it has resolved. */
  register(): Promise<void>;
}

/** `stages` seal the handoffs, outcome events, lifecycle messages and staged contexts the service writes and open those it reads. */
export function serviceCodecs(registry: SchemaRegistryClient, stages: WireStages = {}): ServiceCodecs {
  const codecs = {
    codec: new AvroCodec(registry, HANDOFF_CODEC_SPEC, stages.handoff),
    outcomeCodec: new AvroCodec(registry, OUTCOME_CODEC_SPEC, stages.outcome),
    lifecycleCodec: new AvroCodec(registry, LIFECYCLE_CODEC_SPEC, stages.lifecycle),
    stagedCodec: new AvroCodec(registry, STAGED_CONTEXT_CODEC_SPEC, stages.staged),
  };
  return {
    ...codecs,
    register: async () => {
      await Promise.all(Object.values(codecs).map((codec) => codec.register()));
    },
  };
}
