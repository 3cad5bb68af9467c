import { createRequire } from 'node:module';
import { HANDOFF_TYPES, type HandoffType } from '../handoff/handoff-type.js';

// JSON Schemas live as files in the top-level schemas/ package so that any tool or language can
// read them; require() resolves them through that package's exports without import attributes.
const require = createRequire(import.meta.url);

export type JsonSchema = Record<string, unknown>;

function load(file: string): JsonSchema {
  return require(`@baton/schemas/json/${file}`) as JsonSchema;
}

/** The file of a handoff type's data schema, named by the protocol's convention: `escalation_data.schema.json`. */
export function dataSchemaFile(type: HandoffType): string {
  return `data/${type.toLowerCase()}_data.schema.json`;
}

export interface HandoffSchemas {
  envelope: JsonSchema;
  /** Schemas that data schemas reference by $id. */
  shared: JsonSchema[];
  data: Record<HandoffType, JsonSchema>;
}

export function loadHandoffSchemas(): HandoffSchemas {
  return {
    envelope: load('base_handoff_message.schema.json'),
    shared: [load('data/customer_info.schema.json')],
    data: Object.fromEntries(HANDOFF_TYPES.map((type) => [type, load(dataSchemaFile(type))])) as Record<
      HandoffType,
      JsonSchema
    >,
  };
}

/**
 * The same schemas with every `additionalProperties: false` lifted: how a reader reads a message
 * of a newer minor version, whose extra optional fields it must keep rather than refuse.
 */
export function allowUnknownFields(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema), (key, value: unknown) =>
    key === 'additionalProperties' && value === false ? undefined : value,
  ) as JsonSchema;
}
