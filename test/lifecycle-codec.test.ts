import { createRequire } from 'node:module';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createLifecycleCodec, SchemaRegistryClient, LIFECYCLE_SUBJECT, type LifecycleCodec } from '@baton/wire';

const require = createRequire(import.meta.url);
const example = (name: string): Record<string, any> =>
  structuredClone(require(`@baton/schemas/fixtures/lifecycle/${name}.example.json`)) as Record<string, any>;

/** One example of each of seed 001's eight message types, in the order of a handoff. */
const ONE_OF_EACH = [
  'handoff-request',
  'handoff-accept',
  'handoff-reject',
  'task-context-transfer',
  'handoff-complete',
  'task-status-update',
  'error-notification',
  'heartbeat',
];

describe('the lifecycle codec against the schema registry', () => {
  let codec: LifecycleCodec;

  beforeAll(async () => {
    codec = await createLifecycleCodec(new SchemaRegistryClient({ url: inject('schemaRegistryUrl') }));
  });

  it('registers under its record name, once', async () => {
    const response = await fetch(`${inject('schemaRegistryUrl')}/subjects/${LIFECYCLE_SUBJECT}/versions/latest`);
    expect(((await response.json()) as { id: number }).id).toBe(codec.schemaId);
    const again = await createLifecycleCodec(new SchemaRegistryClient({ url: inject('schemaRegistryUrl') }));
    expect(again.schemaId).toBe(codec.schemaId);
  });

  it.each([...ONE_OF_EACH, 'task-context-transfer-by-reference'])(
    'round-trips %s through Avro in the Confluent wire format, read by a fresh client',
    async (name) => {
      const message = example(name);
      const bytes = codec.encode(message as never);
      expect(bytes[0]).toBe(0);
      expect(bytes.readInt32BE(1)).toBe(codec.schemaId);
      const reader = await createLifecycleCodec(new SchemaRegistryClient({ url: inject('schemaRegistryUrl') }));
      expect(await reader.decode(bytes)).toStrictEqual(message);
    },
  );

  it('refuses a well-encoded message that breaks the JSON Schemas, with the path', async () => {
    const message = example('handoff-accept');
    delete message.correlation_id;
    await expect(codec.decode(codec.encode(message as never))).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      path: '/correlation_id',
      issues: [{ code: 'FIELD_REQUIRED', path: '/correlation_id' }],
    });
  });

  it('refuses a transfer whose payload copy contradicts the envelope', async () => {
    const message = example('task-context-transfer');
    message.payload.correlation_id = 'another-request';
    await expect(codec.decode(codec.encode(message as never))).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      path: '/payload/correlation_id',
    });
  });

  it('refuses to encode what does not fit the Avro schema, naming the field', () => {
    const message = example('heartbeat');
    message.receiver_id = 7;
    expect(() => codec.encode(message as never)).toThrowError(
      expect.objectContaining({ code: 'WIRE_ENCODE_FAILED', path: '/receiver_id' }),
    );
  });
});
