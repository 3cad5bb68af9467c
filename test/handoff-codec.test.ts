import { createRequire } from 'node:module';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createHandoffCodec, SchemaRegistryClient, frameWireFormat, type HandoffCodec } from '@baton/wire';

const require = createRequire(import.meta.url);
const fixture = (name: string): Record<string, any> =>
  structuredClone(require(`@baton/schemas/fixtures/${name}.json`)) as Record<string, any>;

describe('the handoff codec against the schema registry', () => {
  let codec: HandoffCodec;

  beforeAll(async () => {
    codec = await createHandoffCodec(new SchemaRegistryClient({ url: inject('schemaRegistryUrl') }));
  });

  it('round-trips the reference example through Avro in the Confluent wire format', async () => {
    const message = fixture('seed-000-escalation-full');
    const bytes = codec.encode(message as never);
    expect(bytes[0]).toBe(0);
    expect(bytes.readInt32BE(1)).toBe(codec.schemaId);
    expect(await codec.decode(bytes)).toStrictEqual(message);
  });

  it('decodes in a reader that has never seen the schema, fetching it by id from the registry', async () => {
    const reader = await createHandoffCodec(new SchemaRegistryClient({ url: inject('schemaRegistryUrl') }));
    for (const name of ['seed-000-escalation-valid', 'task-transfer.example', 'approval-request.example']) {
      const message = fixture(name);
      const fresh = new SchemaRegistryClient({ url: inject('schemaRegistryUrl') });
      const decoded = await (await createHandoffCodec(fresh)).decode(codec.encode(message as never));
      expect(decoded).toStrictEqual(message);
      expect(reader.schemaId).toBe(codec.schemaId);
    }
  });

  it('registers the same schema once: a second registration returns the same id', async () => {
    const again = await createHandoffCodec(new SchemaRegistryClient({ url: inject('schemaRegistryUrl') }));
    expect(again.schemaId).toBe(codec.schemaId);
  });

  it('refuses bytes that are not in the wire format', async () => {
    await expect(codec.decode(Buffer.from([0, 1]))).rejects.toMatchObject({ code: 'WIRE_FORMAT_INVALID' });
    await expect(codec.decode(Buffer.from('{"metadata":{}}'))).rejects.toMatchObject({ code: 'WIRE_FORMAT_INVALID' });
  });

  it('refuses a schema id the registry does not know', async () => {
    const bytes = frameWireFormat(2_000_000_000, Buffer.from([2, 4, 6]));
    await expect(codec.decode(bytes)).rejects.toMatchObject({
      code: 'WIRE_UNKNOWN_SCHEMA_ID',
      retriable: false,
      details: { schemaId: 2_000_000_000 },
    });
  });

  it('refuses a truncated Avro body', async () => {
    const bytes = codec.encode(fixture('seed-000-escalation-full') as never);
    await expect(codec.decode(bytes.subarray(0, bytes.length - 40))).rejects.toMatchObject({
      code: 'WIRE_BODY_INVALID',
      details: { schemaId: codec.schemaId },
    });
  });

  it('refuses a well-encoded message that breaks the JSON Schemas, with the path', async () => {
    const bytes = codec.encode(fixture('seed-000-escalation-invalid') as never);
    await expect(codec.decode(bytes)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      path: '/payload/data/customer_info/name',
    });
  });

  it('refuses to encode what does not fit the Avro schema, naming the field', () => {
    const message = fixture('seed-000-escalation-valid');
    message.metadata.task_id = 42;
    expect(() => codec.encode(message as never)).toThrowError(
      expect.objectContaining({ code: 'WIRE_ENCODE_FAILED', path: '/metadata/task_id' }),
    );
  });
});
