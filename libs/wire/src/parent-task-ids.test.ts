import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parseHandoff, parseHandoffOutcome, validateHandoff } from '@baton/protocol';
import { HANDOFF_AVRO_SCHEMA, HANDOFF_OUTCOME_AVRO_SCHEMA, parseAvroSchema, type AvroRecordSchema } from './index.js';

const require = createRequire(import.meta.url);
const fixture = (name: string): Record<string, any> =>
  structuredClone(require(`@baton/schemas/fixtures/${name}.json`)) as Record<string, any>;

/** A subtask's message: the workflow's planner split it off task-parent-1. */
function subtaskMessage(): Record<string, any> {
  const message = fixture('task-transfer.example');
  message.metadata.task_id = 'task-parent-1.subtask-3';
  message.metadata.parent_task_ids = ['task-parent-1'];
  return message;
}

const outcome = {
  event_id: '6f1d7b1e-5c1a-4f7e-9d3b-2a4c6e8f0a1b',
  time: '2026-11-21T12:00:00.000Z',
  task_id: 'task-parent-1.subtask-3',
  message_id: '0b3f7a52-8d0e-4c1a-9f6b-5e2d4c3b1a09',
  agent_id: 'reviewer_agent',
  handoff_type: 'TASK_TRANSFER',
  outcome: 'HANDED_OFF',
  parent_task_ids: ['task-parent-1'],
  workflow_state: 'ROUND_2_REVIEW',
};

/** `schema` as it was before parent_task_ids and workflow_state were added. */
function withoutNewFields(schema: AvroRecordSchema, path: string[]): AvroRecordSchema {
  const copy = structuredClone(schema) as any;
  let record = copy;
  for (const name of path) record = record.fields.find((field: any) => field.name === name).type;
  record.fields = record.fields.filter((field: any) => !['parent_task_ids', 'workflow_state'].includes(field.name));
  return copy as AvroRecordSchema;
}

describe('metadata.parent_task_ids', () => {
  it('is an optional list of at least one task id', () => {
    expect(parseHandoff(subtaskMessage()).metadata.parent_task_ids).toEqual(['task-parent-1']);
    const none = subtaskMessage();
    none.metadata.parent_task_ids = [];
    expect(validateHandoff(none)).toEqual([
      expect.objectContaining({ code: 'FIELD_OUT_OF_RANGE', path: '/metadata/parent_task_ids' }),
    ]);
    const blank = subtaskMessage();
    blank.metadata.parent_task_ids = [''];
    expect(validateHandoff(blank)).toEqual([
      expect.objectContaining({ code: 'FIELD_OUT_OF_RANGE', path: '/metadata/parent_task_ids/0' }),
    ]);
  });

  it('round-trips through Avro as a typed field, and reads absent from bodies written before it', () => {
    const type = parseAvroSchema(HANDOFF_AVRO_SCHEMA);
    const message = subtaskMessage();
    expect(type.fromBuffer(type.toBuffer(message))).toStrictEqual(message);
    const before = parseAvroSchema(withoutNewFields(HANDOFF_AVRO_SCHEMA, ['metadata']));
    const plain = fixture('task-transfer.example');
    expect(type.fromBuffer(before.toBuffer(plain), type.createResolver(before))).toStrictEqual(plain);
  });

  it('is written in the released v1 writer schema’s extra fields, so v1 readers keep it', () => {
    const fixtures = '@baton/schemas/avro/fixtures/v1';
    const v1 = parseAvroSchema(
      JSON.parse(readFileSync(require.resolve(`${fixtures}/handoff_message.avsc`), 'utf8')) as AvroRecordSchema,
    );
    const message = subtaskMessage();
    expect(v1.fromBuffer(v1.toBuffer(message))).toStrictEqual(message);
  });
});

describe('the outcome event’s parent_task_ids and workflow_state', () => {
  it('are optional fields the JSON Schema checks', () => {
    expect(parseHandoffOutcome(outcome)).toEqual(outcome);
    expect(() => parseHandoffOutcome({ ...outcome, parent_task_ids: [] })).toThrowError(
      expect.objectContaining({ code: 'VALIDATION_FAILED', path: '/parent_task_ids' }),
    );
  });

  it('round-trip through Avro, and read absent from events written before them', () => {
    const type = parseAvroSchema(HANDOFF_OUTCOME_AVRO_SCHEMA);
    expect(type.fromBuffer(type.toBuffer(outcome))).toStrictEqual(outcome);
    const before = parseAvroSchema(withoutNewFields(HANDOFF_OUTCOME_AVRO_SCHEMA, []));
    const older: Record<string, unknown> = { ...outcome };
    delete older.parent_task_ids;
    delete older.workflow_state;
    expect(type.fromBuffer(before.toBuffer(older), type.createResolver(before))).toStrictEqual(older);
  });
});
