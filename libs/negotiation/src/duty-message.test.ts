import { describe, expect, it } from 'vitest';
import { topicNames } from '@baton/kafka';
import { buildLifecycleMessage, nameBasedUuid, type LifecycleMessage } from '@baton/protocol';
import type { LifecycleCodec } from '@baton/wire';
import { TRACKER_AGENT_ID, deliversToReceiver, dutyMessage, dutyRecords } from './duty-message.js';
import { dutyOf, type Duty } from './negotiation-duty.js';
import { NegotiationFold } from './negotiation-fold.js';

const REQUEST = nameBasedUuid('request');
const T0 = Date.parse('2026-11-22T10:00:00.000Z');
const settings = { acceptTimeoutMs: 5_000, contextAckTimeoutMs: 3_000 };
const json = { encode: (value: unknown) => Buffer.from(JSON.stringify(value)) } as unknown as LifecycleCodec;

/** A negotiation of task t from triage, its request to `receiver` folded, then `more`. */
function negotiating(receiver: string, ...more: LifecycleMessage[]): NegotiationFold {
  const fold = new NegotiationFold({
    request_message_id: REQUEST,
    task_id: 't',
    sender_id: 'triage',
    staged_at: new Date(T0).toISOString(),
    context: { context_data: { task_description: 'router reboot loop' } },
    terms: {
      desired_agent_type: 'NetworkExpert',
      reason: 'lacks the skill',
      failure_handling_strategy: { escalate_to: 'l3' },
    },
  });
  const request = buildLifecycleMessage(
    'HandoffRequest',
    {
      sender_id: 'triage',
      receiver_id: receiver,
      task_id: 't',
      payload: {
        reason: 'why',
        desired_agent_type: 'NetworkExpert',
        priority: 'HIGH',
        initial_context_summary: 'loop',
      },
    },
    { newId: () => REQUEST, now: () => new Date(T0) },
  );
  for (const message of [request, ...more]) expect(fold.apply(message)).toBeUndefined();
  return fold;
}

function dueOf(fold: NegotiationFold, now: number): Duty {
  const check = dutyOf(fold.negotiation, settings, now);
  if (!('due' in check)) throw new Error(`nothing due: ${JSON.stringify(check)}`);
  return check.due;
}

describe('dutyMessage and dutyRecords', () => {
  it('send the staged context to the receiver that accepted, under an id derived from the request', () => {
    const accept = buildLifecycleMessage('HandoffAccept', {
      sender_id: 'expert',
      receiver_id: 'triage',
      task_id: 't',
      correlation_id: REQUEST,
      payload: { estimated_handoff_time: 5 },
    });
    const fold = negotiating('expert', accept);
    const duty = dueOf(fold, T0);
    const message = dutyMessage('t', fold, duty);
    expect(message).toMatchObject({
      message_id: nameBasedUuid(`${REQUEST}/context`),
      message_type: 'TaskContextTransfer',
      sender_id: 'triage',
      receiver_id: 'expert',
      correlation_id: REQUEST,
      payload: { context_data: { task_description: 'router reboot loop' } },
    });
    expect(dutyMessage('t', fold, duty)?.message_id).toBe(message?.message_id);
    expect(deliversToReceiver(duty)).toBe(true);
    const records = dutyRecords(json, topicNames('p'), duty, message as LifecycleMessage);
    expect(records.map((record) => record.topic)).toEqual(['p.events', 'p.agent.expert.control']);
  });

  it('time a silent receiver out from the tracker, on the events topic only, then ask the next candidate', () => {
    const fold = negotiating('expert');
    const timeOut = dueOf(fold, T0 + 5_000);
    const notice = dutyMessage('t', fold, timeOut);
    expect(notice).toMatchObject({
      message_type: 'ErrorNotification',
      sender_id: TRACKER_AGENT_ID,
      receiver_id: 'triage',
      correlation_id: REQUEST,
      payload: { error_code: 'HANDOFF_TIMEOUT', severity: 'WARNING', origin_agent_id: TRACKER_AGENT_ID },
    });
    expect(deliversToReceiver(timeOut)).toBe(false);
    expect(dutyRecords(json, topicNames('p'), timeOut, notice as LifecycleMessage)).toHaveLength(1);
    expect(fold.apply(notice as LifecycleMessage)).toBeUndefined();
    expect(dutyMessage('t', fold, dueOf(fold, T0 + 5_000))).toMatchObject({
      message_type: 'HandoffRequest',
      receiver_id: 'l3',
      correlation_id: REQUEST,
      payload: { initial_context_summary: 'loop' },
    });
  });
});
