import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BatonError } from '@baton/errors';
import type { TaskEvent } from '@baton/protocol';
import { createLogger } from '@baton/runtime';
import { TaskBook } from '@baton/task-tracking';
import { eventsFolder } from './events-folder.js';

const staged: TaskEvent = {
  kind: 'staged',
  value: {
    request_message_id: '00000000-0000-4000-8000-000000000001',
    task_id: 't-1',
    sender_id: 'triage',
    staged_at: '2026-11-22T10:00:00.000Z',
    context: { context_data: { task_description: 'router reboot loop' } },
    terms: { desired_agent_type: 'NetworkExpert', reason: 'lacks the skill' },
  },
};

/** A decoder that knows one record, `staged`, and refuses every other as EventsCodec would. */
const decoder = {
  decode: async (bytes: Buffer): Promise<TaskEvent> => {
    if (bytes.toString() === 'staged') return staged;
    throw new BatonError('WIRE_RECORD_TYPE_UNEXPECTED', 'schema 9 (Other) is not an events record');
  },
};

function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: createLogger('gateway-test', 'info', destination), lines };
}

describe('eventsFolder', () => {
  it('folds each decoded record, logs and skips one that does not decode, and ignores tombstones', async () => {
    const tasks = new TaskBook();
    const { logger, lines } = capturedLogger();
    const fold = eventsFolder(decoder, tasks, logger);
    const record = (offset: string, value: Buffer | null) => ({
      topic: 'baton.events',
      partition: 0,
      key: 't-1',
      offset,
      value,
      headers: {},
      timestamp: '0',
    });
    await fold(record('3', Buffer.from('other')));
    await fold(record('4', null));
    await fold(record('5', Buffer.from('staged')));
    expect(tasks.get('t-1')).toMatchObject({ status: 'WAITING', owner: 'triage', timeline: [{ kind: 'staged' }] });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'warn',
        event: 'timeline.undecodable_event',
        task_id: 't-1',
        offset: '3',
        err: expect.objectContaining({ code: 'WIRE_RECORD_TYPE_UNEXPECTED' }),
      }),
    ]);
  });
});
