import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import avro from 'avsc';
import { parseAvroSchema } from './handoff-avro-schema.js';
import { LIFECYCLE_AVRO_SCHEMA, LIFECYCLE_SUBJECT } from './lifecycle-codec.js';

const require = createRequire(import.meta.url);
const folder = dirname(require.resolve('@baton/schemas/fixtures/lifecycle/heartbeat.example.json'));
const examples = readdirSync(folder).filter((file) => file.endsWith('.example.json'));
const example = (file: string): Record<string, any> =>
  structuredClone(require(`${folder}/${file}`)) as Record<string, any>;
const type = parseAvroSchema(LIFECYCLE_AVRO_SCHEMA);
const roundTrip = (value: unknown): unknown => type.fromBuffer(type.toBuffer(value));

describe('the lifecycle Avro schema', () => {
  it('names its subject by RecordNameStrategy', () => {
    expect(LIFECYCLE_SUBJECT).toBe('io.baton.lifecycle.v1.LifecycleMessage');
  });

  it('has an example of each of the eight message types to round-trip', () => {
    expect(new Set(examples.map((file) => example(file).message_type)).size).toBe(8);
  });

  it.each(examples)('round-trips %s to a deep-equal message', (file) => {
    const message = example(file);
    expect(roundTrip(message)).toStrictEqual(message);
  });

  it("keeps a newer minor's envelope fields", () => {
    const message = example('handoff-accept.example.json');
    message.protocol_version = '1.2.0';
    message.trace_state = { vendor: 'abc' };
    expect(roundTrip(message)).toStrictEqual(message);
  });

  it('carries the envelope typed and the payload as JSON text for plain Avro readers', () => {
    const message = example('handoff-reject.example.json');
    const plain = avro.Type.forSchema(LIFECYCLE_AVRO_SCHEMA as avro.Schema);
    const decoded = plain.fromBuffer(type.toBuffer(message)) as any;
    expect(decoded.message_type).toBe('HandoffReject');
    expect(decoded.correlation_id).toBe(message.correlation_id);
    expect(decoded.signature).toBeNull();
    expect(JSON.parse(decoded.payload)).toStrictEqual(message.payload);
  });
});
