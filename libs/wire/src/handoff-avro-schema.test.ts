import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import avro from 'avsc';
import { avroParseOptions, HANDOFF_AVRO_SCHEMA, HANDOFF_SUBJECT, parseAvroSchema } from './handoff-avro-schema.js';

const require = createRequire(import.meta.url);
const fixture = (name: string): Record<string, any> =>
  structuredClone(require(`@baton/schemas/fixtures/${name}.json`)) as Record<string, any>;
const type = parseAvroSchema(HANDOFF_AVRO_SCHEMA);
const roundTrip = (value: unknown): unknown => type.fromBuffer(type.toBuffer(value));

describe('the handoff Avro schema', () => {
  it('names its subject by RecordNameStrategy', () => {
    expect(HANDOFF_SUBJECT).toBe('io.baton.handoff.v1.HandoffMessage');
  });

  it.each([
    'seed-000-escalation-full',
    'seed-000-escalation-valid',
    'task-transfer.example',
    'request-information.example',
    'provide-information.example',
    'notification.example',
    'status-update.example',
    'approval-request.example',
  ])('round-trips %s to a deep-equal message', (name) => {
    const message = fixture(name);
    expect(roundTrip(message)).toStrictEqual(message);
  });

  it('keeps the open fields of previous actions and the fields of a newer minor version', () => {
    const message = fixture('seed-000-escalation-full');
    message.metadata.protocol_version = '1.4.0';
    message.metadata.tenant_id = 'acme';
    message.context.previous_actions[0].tool_calls = [{ name: 'look_up_item', result: 'item_132612938' }];
    message.instructions.failure_handling_strategy.backoff = 'PT30S';
    message.extensions_from_future = { a: 1 };
    expect(roundTrip(message)).toStrictEqual(message);
  });

  it('keeps open fields named like Object.prototype members', () => {
    const message = fixture('seed-000-escalation-full');
    message.context.previous_actions[0].toString = 'an open field, not the method';
    message.context.previous_actions[0].constructor = 'likewise';
    expect(roundTrip(message)).toStrictEqual(message);
  });

  it('lets a named field win over an extra field of the same name', () => {
    const rawType = avro.Type.forSchema(
      {
        type: 'record',
        name: 'T',
        logicalType: 'baton-open-record',
        fields: [
          { name: 'a', type: 'string' },
          { name: 'extra_fields_json', type: ['null', { type: 'string', logicalType: 'baton-json' }], default: null },
        ],
      } as avro.Schema,
      avroParseOptions(),
    );
    const plain = avro.Type.forSchema({
      type: 'record',
      name: 'T',
      fields: [
        { name: 'a', type: 'string' },
        { name: 'extra_fields_json', type: ['null', 'string'], default: null },
      ],
    });
    const bytes = plain.toBuffer({ a: 'named', extra_fields_json: JSON.stringify({ a: 'extra', b: 2 }) });
    expect(rawType.fromBuffer(bytes)).toStrictEqual({ a: 'named', b: 2 });
  });

  it('carries payload.data as JSON text that plain Avro readers can see', () => {
    const message = fixture('seed-000-escalation-valid');
    const plain = avro.Type.forSchema(HANDOFF_AVRO_SCHEMA as avro.Schema);
    const decoded = plain.fromBuffer(type.toBuffer(message)) as any;
    expect(JSON.parse(decoded.payload.data)).toStrictEqual(message.payload.data);
    expect(decoded.metadata.correlation_id).toBe('flow-xyz-123');
    expect(decoded.metadata.expiration_time).toBeNull();
  });

  it('reads every body saved by a released writer schema', () => {
    const fixtures = '@baton/schemas/avro/fixtures/v1';
    const writer = parseAvroSchema(
      JSON.parse(readFileSync(require.resolve(`${fixtures}/handoff_message.avsc`), 'utf8')),
    );
    const resolver = type.createResolver(writer);
    for (const [body, json] of [
      ['seed-000-escalation-full.avro', 'seed-000-escalation-full'],
      ['task-transfer.avro', 'task-transfer.example'],
    ] as const) {
      const bytes = readFileSync(require.resolve(`${fixtures}/${body}`));
      expect(type.fromBuffer(bytes, resolver)).toStrictEqual(fixture(json));
    }
  });
});
