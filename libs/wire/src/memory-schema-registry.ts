import { parseAvroSchema, type AvroRecordSchema } from './handoff-avro-schema.js';
import type { SchemaRegistryClient } from './schema-registry-client.js';

/**
 * A schema registry held in memory, for the real codecs where no registry runs (unit tests): it
 * numbers the schemas registered from 1 and checks no compatibility.
 */
export function memorySchemaRegistry(): SchemaRegistryClient {
  const schemas: AvroRecordSchema[] = [];
  const registry: Pick<SchemaRegistryClient, 'register' | 'avroType'> = {
    register: async (schema) => schemas.push(schema),
    avroType: async (id) => parseAvroSchema(schemas[id - 1] as AvroRecordSchema),
  };
  return registry as SchemaRegistryClient;
}
