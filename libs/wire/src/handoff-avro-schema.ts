import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import avro from 'avsc';
import { BATON_LOGICAL_TYPES } from './avro-logical-types.js';

const require = createRequire(import.meta.url);

export type AvroRecordSchema = { type: 'record'; name: string; namespace: string; fields: unknown[] };

/** An Avro schema versioned as a file in schemas/avro/. */
function loadAvroSchema(file: string): AvroRecordSchema {
  return JSON.parse(readFileSync(require.resolve(`@baton/schemas/avro/${file}`), 'utf8')) as AvroRecordSchema;
}

/** The wire schema of the handoff message. */
export const HANDOFF_AVRO_SCHEMA = loadAvroSchema('handoff_message.avsc');

/** The wire schema of the outcome events on the events topic. */
export const HANDOFF_OUTCOME_AVRO_SCHEMA = loadAvroSchema('handoff_outcome.avsc');

/** The wire schema of a negotiated handoff's staged context on the events topic. */
export const STAGED_CONTEXT_AVRO_SCHEMA = loadAvroSchema('staged_context.avsc');

/**
 * Subjects follow Confluent's RecordNameStrategy: the subject is the record's full name, because
 * one record type travels on many topics (router inbound, agent inboxes, dead letters) and must
 * keep one compatibility history.
 */
export function recordNameSubject(schema: AvroRecordSchema): string {
  return `${schema.namespace}.${schema.name}`;
}

export const HANDOFF_SUBJECT = recordNameSubject(HANDOFF_AVRO_SCHEMA);

/** Fresh each call: avsc records parsed names in the options object it is given. */
export function avroParseOptions(): { logicalTypes: typeof BATON_LOGICAL_TYPES } {
  return { logicalTypes: BATON_LOGICAL_TYPES };
}

export function parseAvroSchema(schema: AvroRecordSchema): avro.Type {
  return avro.Type.forSchema(schema as avro.Schema, avroParseOptions());
}
