import { describe, expect, it } from 'vitest';
import { BatonError } from '@baton/errors';
import { frameWireFormat } from '@baton/wire';
import { decodeRecord, formatRecordLine, isEventsTopic, type DecoderSource, type RawRecord } from './record-decoder.js';

const handoff = {
  metadata: { message_id: 'm-1', sender_id: 'ops', recipient_id: 'probe_agent', task_id: 't-1' },
  payload: { handoff_type: 'STATUS_UPDATE', data: {} },
};
const outcome = { agent_id: 'router', outcome: 'ROUTED', handoff_type: 'STATUS_UPDATE', target: 'probe_agent' };

/** Decoders that read the body as JSON; `invalid` bodies fail validation. */
const decoders: DecoderSource = {
  handoffs: async () => ({
    decode: async (bytes) => {
      const value = JSON.parse(bytes.subarray(5).toString()) as { invalid?: boolean };
      if (value.invalid) throw new BatonError('VALIDATION_FAILED', 'invalid handoff message: /metadata: missing');
      return value;
    },
    decodeUnchecked: async (bytes) => JSON.parse(bytes.subarray(5).toString()),
  }),
  // The events topic's three record types, told apart here by a field only each has.
  events: async () => ({
    decode: async (bytes) => {
      const value = JSON.parse(bytes.subarray(5).toString()) as Record<string, unknown>;
      const kind = 'message_type' in value ? 'lifecycle' : 'request_message_id' in value ? 'staged' : 'outcome';
      return { kind, value };
    },
    decodeUnchecked: async (bytes) => JSON.parse(bytes.subarray(5).toString()),
  }),
};
const lifecycle = {
  message_id: 'r-2',
  message_type: 'HandoffReject',
  sender_id: 'sales',
  receiver_id: 'triage',
  task_id: 't-1',
  correlation_id: 'r-1',
  payload: { reason: 'capability mismatch' },
};
const staged = {
  request_message_id: 'r-1',
  task_id: 't-1',
  sender_id: 'triage',
  staged_at: '2026-11-22T10:00:00.000Z',
  context: {},
  terms: { desired_agent_type: 'NetworkExpert', reason: 'lacks the skill' },
};

function record(topic: string, value: Buffer | null, headers: Record<string, string> = {}): RawRecord {
  return { topic, partition: 1, offset: '7', key: 't-1', value, headers, timestamp: '1700000000000' };
}

const avro = (value: unknown) => frameWireFormat(3, Buffer.from(JSON.stringify(value)));

describe('decodeRecord', () => {
  it('decodes handoffs, and on the events topic outcome events, lifecycle messages and staged contexts', async () => {
    expect(await decodeRecord(record('baton.handoffs.inbound', avro(handoff)), decoders)).toMatchObject({
      kind: 'handoff',
      value: handoff,
      timestamp: '2023-11-14T22:13:20.000Z',
      partition: 1,
      offset: '7',
      key: 't-1',
    });
    expect(await decodeRecord(record('baton.events', avro(outcome)), decoders)).toMatchObject({
      kind: 'outcome',
      value: outcome,
    });
    expect(await decodeRecord(record('baton.events', avro(lifecycle)), decoders)).toMatchObject({
      kind: 'lifecycle',
      value: lifecycle,
    });
    expect(await decodeRecord(record('baton.events', avro(staged)), decoders)).toMatchObject({
      kind: 'staged',
      value: staged,
    });
    expect(isEventsTopic('x.events')).toBe(true);
    expect(isEventsTopic('x.events.dlq')).toBe(false);
  });

  it('shows JSON as JSON and a tombstone as such', async () => {
    const ledger = record('baton.ledger', Buffer.from('{"effect":"observed"}'), { 'content-type': 'application/json' });
    expect(await decodeRecord(ledger, decoders)).toMatchObject({ kind: 'json', value: { effect: 'observed' } });
    expect(await decodeRecord(record('baton.ledger', null), decoders)).toMatchObject({ kind: 'tombstone' });
  });

  it('shows undecodable bytes with their error code, and an invalid handoff with what it holds', async () => {
    const garbage = await decodeRecord(record('t', Buffer.from('not avro at all')), decoders);
    expect(garbage).toMatchObject({
      kind: 'undecodable',
      error: { code: 'WIRE_FORMAT_INVALID' },
      value_base64: Buffer.from('not avro at all').toString('base64'),
    });
    expect(formatRecordLine(garbage)).toContain('undecodable WIRE_FORMAT_INVALID: record value starts with byte 110');
    const invalid = await decodeRecord(record('t', avro({ invalid: true })), decoders);
    expect(invalid).toMatchObject({
      kind: 'undecodable',
      error: { code: 'VALIDATION_FAILED' },
      value: { invalid: true },
    });
  });
});

describe('formatRecordLine', () => {
  it('prints one line per record: position, key and a summary', async () => {
    const where = '2023-11-14T22:13:20.000Z  t/1@7  key=t-1';
    expect(formatRecordLine(await decodeRecord(record('t', avro(handoff)), decoders))).toBe(
      `${where}  handoff STATUS_UPDATE ops -> probe_agent message_id=m-1`,
    );
    expect(formatRecordLine(await decodeRecord(record('t.events', avro(outcome)), decoders))).toBe(
      `2023-11-14T22:13:20.000Z  t.events/1@7  key=t-1  outcome router: ROUTED STATUS_UPDATE -> probe_agent`,
    );
    expect(formatRecordLine(await decodeRecord(record('t.events', avro(lifecycle)), decoders))).toBe(
      `2023-11-14T22:13:20.000Z  t.events/1@7  key=t-1  lifecycle HandoffReject sales -> triage message_id=r-2 correlation_id=r-1`,
    );
    expect(formatRecordLine(await decodeRecord(record('t.events', avro(staged)), decoders))).toBe(
      `2023-11-14T22:13:20.000Z  t.events/1@7  key=t-1  staged triage wants NetworkExpert request_message_id=r-1`,
    );
    expect(formatRecordLine(await decodeRecord(record('t', Buffer.from('[1,2]')), decoders))).toBe(
      `${where}  json [1,2]`,
    );
  });
});
