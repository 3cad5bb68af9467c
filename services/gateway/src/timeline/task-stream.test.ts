import { describe, expect, it } from 'vitest';
import type { TimelineEvent, UserReply } from '@baton/gateway-api';
import { framesAfter, sseText, streamPositionOf, STREAM_START } from './task-stream.js';

function step(time: string, message_id: string): TimelineEvent {
  return { kind: 'outcome', time, message_id, handoff_type: 'TASK_TRANSFER', agent_id: 'router', outcome: 'ROUTED' };
}

function reply(time: string, message_id: string): UserReply {
  return { kind: 'reply', time, message_id, agent_id: 'triage_agent', message: 'Hello' };
}

const steps = [step('2026-11-24T10:00:01.000Z', 's1'), step('2026-11-24T10:00:03.000Z', 's2')];
const replies = [reply('2026-11-24T10:00:02.000Z', 'r1'), reply('2026-11-24T10:00:03.000Z', 'r2')];

describe('framesAfter', () => {
  it('sends steps and replies in time order, a step before a reply of the same time, each id the position after it', () => {
    const { frames, to } = framesAfter(STREAM_START, steps, replies);
    expect(frames.map((frame) => [frame.id, frame.event, frame.data.message_id])).toEqual([
      ['1.0', 'step', 's1'],
      ['1.1', 'reply', 'r1'],
      ['2.1', 'step', 's2'],
      ['2.2', 'reply', 'r2'],
    ]);
    expect(to).toEqual({ steps: 2, replies: 2 });
  });

  it('resumes after the position a Last-Event-ID names, sending nothing twice', () => {
    const { frames } = framesAfter(streamPositionOf('1.1'), steps, replies);
    expect(frames.map((frame) => frame.id)).toEqual(['2.1', '2.2']);
    expect(framesAfter(streamPositionOf('2.2'), steps, replies).frames).toEqual([]);
  });

  it('keeps each stream in its own order whatever the times say', () => {
    const late = [step('2026-11-24T10:00:05.000Z', 's1'), step('2026-11-24T10:00:04.000Z', 's2')];
    expect(framesAfter(STREAM_START, late, []).frames.map((frame) => frame.data.message_id)).toEqual(['s1', 's2']);
  });
});

describe('streamPositionOf', () => {
  it.each([undefined, '', 'abc', '1', '1.2.3', '-1.0', '1.x'])('starts from the beginning for %j', (id) => {
    expect(streamPositionOf(id)).toEqual(STREAM_START);
  });

  it('reads <steps>.<replies>', () => {
    expect(streamPositionOf(' 12.3 ')).toEqual({ steps: 12, replies: 3 });
  });
});

describe('sseText', () => {
  it('writes one event: id, type and its JSON on one data line', () => {
    expect(sseText({ id: '1.0', event: 'reply', data: reply('t', 'r1') })).toBe(
      'id: 1.0\nevent: reply\ndata: {"kind":"reply","time":"t","message_id":"r1","agent_id":"triage_agent","message":"Hello"}\n\n',
    );
  });
});
