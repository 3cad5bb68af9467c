import { createRequire } from 'node:module';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createHandoffCodec,
  createLifecycleCodec,
  EventsCodec,
  SchemaRegistryClient,
  LIFECYCLE_SUBJECT,
  type LifecycleCodec,
} from '@baton/wire';

const require = createRequire(import.meta.url);
const example = (name: string): Record<string, any> =>
  structuredClone(require(`@baton/schemas/fixtures/lifecycle/${name}.example.json`)) as Record<string, any>;

/** One example of each of the eight lifecycle message types, in the order of a handoff. */
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

describe('the events topic codec against the schema registry', () => {
  const staged = {
    request_message_id: '6f1c2d3e-4b5a-4c6d-8e7f-901234567890',
    task_id: 'task-12345',
    sender_id: 'technical_support_agent',
    staged_at: '2026-11-22T10:00:00.000Z',
    context: { context_data: { task_description: 'router reboot loop', goals: ['restore the line'] } },
    terms: {
      desired_agent_type: 'NetworkExpert',
      reason: 'lacks the skill',
      time_limit: 'PT2H',
      failure_handling_strategy: { retry_count: 1, escalate_to: 'level3_network_expert' },
    },
  };

  it('tells outcome events, lifecycle messages and staged contexts apart, as a fresh client reads them', async () => {
    const writer = await EventsCodec.create(new SchemaRegistryClient({ url: inject('schemaRegistryUrl') }));
    const request = example('handoff-request');
    const outcome = {
      event_id: '0e9d8c7b-6a5f-4e3d-8c2b-1a0987654321',
      time: '2026-11-22T10:00:01.000Z',
      task_id: 'task-12345',
      message_id: 'm-1',
      agent_id: 'technical_support_agent',
      handoff_type: 'ESCALATION',
      outcome: 'HANDOFF_REQUESTED' as const,
      target: 'level3_network_expert',
    };
    const reader = await EventsCodec.create(new SchemaRegistryClient({ url: inject('schemaRegistryUrl') }));
    expect(await reader.decode(writer.staged.encode(staged))).toStrictEqual({ kind: 'staged', value: staged });
    expect(await reader.decode(writer.lifecycle.encode(request as never))).toStrictEqual({
      kind: 'lifecycle',
      value: request,
    });
    expect(await reader.decode(writer.outcome.encode(outcome))).toStrictEqual({ kind: 'outcome', value: outcome });
  });

  it('refuses a staged context that breaks its schema, and a record of another type, with their codes', async () => {
    const codec = await EventsCodec.create(new SchemaRegistryClient({ url: inject('schemaRegistryUrl') }));
    const both = { ...staged, context: { context_data: {}, context_ref: { uri: 'kafka://x/0/0' } } };
    await expect(codec.decode(codec.staged.encode(both as never))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    const handoffs = await createHandoffCodec(new SchemaRegistryClient({ url: inject('schemaRegistryUrl') }));
    const seed = structuredClone(require('@baton/schemas/fixtures/seed-000-escalation-full.json'));
    await expect(codec.decode(handoffs.encode(seed))).rejects.toMatchObject({ code: 'WIRE_RECORD_TYPE_UNEXPECTED' });
  });
});
