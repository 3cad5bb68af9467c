import { describe, expect, it } from 'vitest';
import { createLogger } from '@baton/runtime';
import { buildHandoff } from '@baton/protocol';
import type { UserReply } from '@baton/gateway-api';
import { repliesFolder, TaskReplies } from './task-replies.js';

const reply = (message_id: string): UserReply => ({
  kind: 'reply',
  message_id,
  time: '2026-11-24T10:00:00.000Z',
  agent_id: 'triage_agent',
  message: 'Hi',
});

describe('TaskReplies', () => {
  it('keeps each task’s replies once, in order', () => {
    const replies = new TaskReplies();
    expect([replies.add('t1', reply('a')), replies.add('t1', reply('b')), replies.add('t1', reply('a'))]).toEqual([
      true,
      true,
      false,
    ]);
    expect(replies.of('t1').map((known) => known.message_id)).toEqual(['a', 'b']);
    expect(replies.of('unknown')).toEqual([]);
  });

  it('forgets the task replied to least recently past its bound', () => {
    const replies = new TaskReplies(2);
    replies.add('t1', reply('a'));
    replies.add('t2', reply('b'));
    replies.add('t1', reply('c'));
    replies.add('t3', reply('d'));
    expect([replies.of('t1').length, replies.of('t2').length, replies.of('t3').length]).toEqual([2, 0, 1]);
  });
});

describe('repliesFolder', () => {
  const notification = buildHandoff({
    metadata: {
      sender_id: 'sales_agent',
      recipient_id: 'user',
      task_id: 'task-1',
      message_id: '0b6f1c2e-5d4a-4b8e-9f3a-2c1d7e6f5a4b',
    },
    payload: { handoff_type: 'NOTIFICATION', data: { event_type: 'AGENT_REPLY', message: 'Order placed.' } },
  });

  it('keeps an agent’s NOTIFICATION to the user and tells whose task changed', async () => {
    const replies = new TaskReplies();
    const changed: string[] = [];
    const fold = repliesFolder(
      { decode: async () => notification },
      replies,
      createLogger('test', 'silent'),
      (taskId) => changed.push(taskId),
    );
    await fold({ key: 'task-1', offset: '0', value: Buffer.from('x') });
    await fold({ key: 'task-1', offset: '0', value: Buffer.from('x') });
    expect(replies.of('task-1')).toEqual([
      {
        kind: 'reply',
        message_id: '0b6f1c2e-5d4a-4b8e-9f3a-2c1d7e6f5a4b',
        time: notification.metadata.timestamp,
        agent_id: 'sales_agent',
        message: 'Order placed.',
      },
    ]);
    expect(changed).toEqual(['task-1']);
  });

  it('skips a record that does not decode, and logs it', async () => {
    const lines: string[] = [];
    const fold = repliesFolder(
      {
        decode: async () => {
          throw new Error('bad bytes');
        },
      },
      new TaskReplies(),
      createLogger('test', 'info', { write: (line: string) => lines.push(line) }),
      () => undefined,
    );
    await fold({ key: 'task-1', offset: '7', value: Buffer.from('x') });
    expect(lines.map((line) => (JSON.parse(line) as { event: string }).event)).toEqual(['timeline.undecodable_reply']);
  });
});
