import { createRequire } from 'node:module';
import { LIFECYCLE_MESSAGE_TYPES, type LifecycleMessageType } from '../lifecycle/lifecycle-message.js';
import type { JsonSchema } from './schema-files.js';

const require = createRequire(import.meta.url);

/** The file of a message type's payload schema: `HandoffRequest` → `lifecycle/handoff_request_payload.schema.json`. */
export function payloadSchemaFile(type: LifecycleMessageType): string {
  const snake = type.replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase();
  return `lifecycle/${snake}_payload.schema.json`;
}

export interface LifecycleSchemas {
  /** References every payload schema by $id, so they must be added to Ajv before it is compiled. */
  envelope: JsonSchema;
  payloads: Record<LifecycleMessageType, JsonSchema>;
}

export function loadLifecycleSchemas(): LifecycleSchemas {
  const load = (file: string): JsonSchema => require(`@baton/schemas/json/${file}`) as JsonSchema;
  return {
    envelope: load('lifecycle/lifecycle_message.schema.json'),
    payloads: Object.fromEntries(
      LIFECYCLE_MESSAGE_TYPES.map((type) => [type, load(payloadSchemaFile(type))]),
    ) as Record<LifecycleMessageType, JsonSchema>,
  };
}
