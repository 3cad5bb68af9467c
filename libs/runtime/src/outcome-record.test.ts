import { describe, expect, it } from 'vitest';
import { encodedHeaderStrings } from '@baton/kafka';
import { buildHandoff } from '@baton/protocol';
import { EventsCodec, memorySchemaRegistry } from '@baton/wire';
import { outcomeRecord } from './outcome-record.js';

const draft = {
  metadata: { sender_id: 'triage_agent', recipient_id: 'sales_agent', task_id: 'task-1' },
  payload: { handoff_type: 'TASK_TRANSFER', data: { issue_category: 'SALES', task_summary: 'A mesh kit.' } },
} as const;
const handoff = buildHandoff(draft);

describe('outcomeRecord', () => {
  it('writes the time it is given, in the event and its ce_time header, the same within a millisecond', async () => {
    const events = await EventsCodec.create(memorySchemaRegistry());
    const times = ['2026-11-28T10:00:00.001Z', '2026-11-28T10:00:00.001Z', '2026-11-28T10:00:00.002Z'];
    const written = [];
    for (const time of times) {
      const record = outcomeRecord(
        events.outcome,
        'events',
        handoff,
        { agentId: 'sales_agent', outcome: 'COMPLETED' },
        new Date(time),
      );
      const event = (await events.outcome.decode(record.value as Buffer)) as { time: string; event_id: string };
      const headers = encodedHeaderStrings(record.encodedHeaders!);
      expect(headers.ce_time).toBe(event.time);
      expect(headers.ce_id).toBe(event.event_id);
      written.push(event.time);
    }
    expect(written).toStrictEqual(times);
  });

  it("carries the handoff's expiration_time, by which a task list tells a stuck task, through the Avro schema", async () => {
    const events = await EventsCodec.create(memorySchemaRegistry());
    const expiring = buildHandoff({
      ...draft,
      metadata: { ...draft.metadata, expiration_time: '2026-12-07T10:00:00.000Z' },
    });
    const decode = async (from: typeof handoff) =>
      (await events.outcome.decode(
        outcomeRecord(events.outcome, 'events', from, { agentId: 'router', outcome: 'ROUTED' }).value as Buffer,
      )) as { expiration_time?: string };
    expect((await decode(expiring)).expiration_time).toBe('2026-12-07T10:00:00.000Z');
    expect(await decode(handoff)).not.toHaveProperty('expiration_time');
  });

  it('refuses an invalid date as toISOString does', async () => {
    const events = await EventsCodec.create(memorySchemaRegistry());
    expect(() =>
      outcomeRecord(events.outcome, 'events', handoff, { agentId: 'a', outcome: 'COMPLETED' }, new Date(Number.NaN)),
    ).toThrow(RangeError);
  });
});
