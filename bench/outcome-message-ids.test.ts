import { describe, expect, it } from 'vitest';
import { EventsCodec, HANDOFF_OUTCOME_AVRO_SCHEMA, memorySchemaRegistry, parseAvroSchema } from '@baton/wire';
import { OutcomeMessageIds } from './outcome-message-ids.js';

const EVENT = {
  event_id: '6f1c1d7e-1b8a-4c52-9e0b-6f5f8f0e2a11',
  time: '2026-11-28T10:00:00.000Z',
  task_id: 'bench-task-7',
  message_id: 'a1b2c3d4-e5f6-4890-8234-567890abcdef',
  correlation_id: 'flow-1',
  agent_id: 'bench_agent',
  handoff_type: 'STATUS_UPDATE',
  sender_id: 'bench',
  recipient_id: 'bench_agent',
  issue_category: 'billing',
  outcome: 'COMPLETED',
  detail: 'benchmarked',
  parent_task_ids: ['bench-task-1', 'bench-task-2'],
  workflow_state: 'DONE',
} as const;

describe('OutcomeMessageIds', () => {
  it('reads the message_id of an outcome event, asking the registry once per writer schema', async () => {
    const registry = memorySchemaRegistry();
    let asked = 0;
    const counting = Object.assign(Object.create(registry) as typeof registry, {
      avroType: (id: number) => {
        asked += 1;
        return registry.avroType(id);
      },
    });
    const events = await EventsCodec.create(registry);
    const ids = new OutcomeMessageIds(counting);
    const first = ids.read(events.outcome.encode(EVENT));
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toBe(EVENT.message_id);
    const second = ids.read(events.outcome.encode({ ...EVENT, message_id: 'second-id', detail: undefined }));
    expect(second).toBe('second-id');
    expect(asked).toBe(1);
  });

  it('reads events written with an earlier outcome schema, whose fields end before the newer ones', async () => {
    const registry = memorySchemaRegistry();
    const fields = (HANDOFF_OUTCOME_AVRO_SCHEMA.fields as { name: string }[]).filter(
      (field) => !['parent_task_ids', 'workflow_state', 'extra_fields_json'].includes(field.name),
    );
    const older = { ...HANDOFF_OUTCOME_AVRO_SCHEMA, fields, logicalType: undefined };
    const id = await registry.register(older, 'older', 'BACKWARD');
    const body = parseAvroSchema(older).toBuffer({ ...EVENT, parent_task_ids: undefined, workflow_state: undefined });
    const header = Buffer.alloc(5);
    header.writeInt32BE(id, 1);
    expect(await new OutcomeMessageIds(registry).read(Buffer.concat([header, body]))).toBe(EVENT.message_id);
  });

  it('refuses bytes that are not in the Confluent wire format', () => {
    const ids = new OutcomeMessageIds(memorySchemaRegistry());
    expect(() => ids.read(Buffer.from([7, 0, 0, 0, 1, 2]))).toThrow(
      expect.objectContaining({ code: 'WIRE_FORMAT_INVALID' }),
    );
  });
});
