import { describe, expect, it } from 'vitest';
import {
  buildLifecycleMessage,
  type HandoffOutcome,
  type LifecycleMessageType,
  type LifecyclePayloadByType,
  type TaskEvent,
} from '@baton/protocol';
import { NegotiationTimeline, mattersToTimeline, negotiationLatencies } from './negotiation-timeline.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');

function lifecycle<T extends LifecycleMessageType>(
  type: T,
  taskId: string,
  atMs: number,
  payload: LifecyclePayloadByType[T],
  correlationId?: string,
): TaskEvent {
  const [sender_id, receiver_id] =
    type === 'HandoffRequest' || type === 'TaskContextTransfer'
      ? ['bench_sender', 'bench_agent']
      : ['bench_agent', 'bench_sender'];
  const value = buildLifecycleMessage(
    type,
    {
      sender_id,
      receiver_id,
      task_id: taskId,
      ...(correlationId === undefined ? {} : { correlation_id: correlationId }),
      payload,
    } as never,
    { now: () => new Date(T0 + atMs) },
  );
  return { kind: 'lifecycle', value } as TaskEvent;
}

function outcome(taskId: string, atMs: number, agentId: string, kind: HandoffOutcome['outcome']): TaskEvent {
  const value: HandoffOutcome = {
    event_id: `e-${taskId}-${atMs}`,
    time: new Date(T0 + atMs).toISOString(),
    task_id: taskId,
    message_id: `m-${taskId}`,
    agent_id: agentId,
    handoff_type: 'STATUS_UPDATE',
    outcome: kind,
  };
  return { kind: 'outcome', value };
}

const REQUEST = {
  reason: 'bench',
  desired_agent_type: 'bench_agent',
  priority: 'MEDIUM',
  initial_context_summary: 'bench',
} as const;

/** A whole negotiation of `taskId`: request at `start`, then one step every `step` ms. */
function negotiation(taskId: string, start: number, step: number): TaskEvent[] {
  const request = lifecycle('HandoffRequest', taskId, start, REQUEST);
  const id = request.kind === 'lifecycle' ? request.value.message_id : '';
  return [
    outcome(taskId, start - 1, 'bench_sender', 'HANDOFF_REQUESTED'),
    request,
    lifecycle('HandoffAccept', taskId, start + step, { estimated_handoff_time: 1 }, id),
    lifecycle('TaskContextTransfer', taskId, start + 2 * step, { context_data: {} }, id),
    lifecycle('HandoffComplete', taskId, start + 3 * step, { handoff_status: 'SUCCESS' }, id),
    outcome(taskId, start + 4 * step, 'bench_agent', 'COMPLETED'),
  ];
}

describe('NegotiationTimeline', () => {
  it('times each task from its first request to HandoffComplete and to the receiver COMPLETED outcome', () => {
    const timeline = new NegotiationTimeline('bench_agent');
    const a = negotiation('a', 100, 10);
    const b = negotiation('b', 200, 20);
    // Interleaved, as partitions are; each task's records keep their order.
    for (const [i, event] of a.entries()) {
      timeline.add(event, 1_000 + i);
      timeline.add(b[i] as TaskEvent, 2_000 + i);
    }
    expect(timeline.completed).toBe(2);
    expect(timeline.settled).toBe(2);
    const latencies = negotiationLatencies(
      timeline.tasks,
      new Map([
        ['a', T0 + 90],
        ['b', T0 + 150],
      ]),
    );
    expect(latencies.toComplete).toEqual([30, 60]);
    expect(latencies.toCompleted).toEqual([40, 80]);
    expect(latencies.steps).toEqual({
      'publish→request': [10, 50],
      'request→accept': [10, 20],
      'accept→context': [10, 20],
      'context→complete': [10, 20],
      'complete→COMPLETED': [10, 20],
    });
    expect(latencies.lastCompleteReadAt).toBe(2_004);
    expect(latencies.lastCompletedReadAt).toBe(2_005);
  });

  it('leaves out tasks still under way, and counts the COMPLETED outcomes of other agents as nothing', () => {
    const timeline = new NegotiationTimeline('bench_agent');
    const events = negotiation('a', 0, 5);
    for (const event of events.slice(0, 5)) timeline.add(event, 0);
    timeline.add(outcome('a', 30, 'someone_else', 'COMPLETED'), 0);
    expect(timeline.completed).toBe(0);
    expect(timeline.missing()).toEqual({ request: 0, accept: 0, context: 0, complete: 0, completed: 1 });
    expect(negotiationLatencies(timeline.tasks, new Map()).toComplete).toEqual([]);
    timeline.add(events[5] as TaskEvent, 7);
    expect(timeline.completed).toBe(1);
    expect(negotiationLatencies(timeline.tasks, new Map()).toCompleted).toEqual([20]);
  });

  it('starts at the first request when a rejection sends the task to another receiver', () => {
    const timeline = new NegotiationTimeline('bench_agent');
    const first = lifecycle('HandoffRequest', 'a', 0, REQUEST);
    const firstId = first.kind === 'lifecycle' ? first.value.message_id : '';
    timeline.add(first, 0);
    timeline.add(lifecycle('HandoffReject', 'a', 5, { reason: 'overloaded' }, firstId), 0);
    for (const event of negotiation('a', 50, 10).slice(1)) timeline.add(event, 0);
    expect(timeline.tasks.get('a')?.setbacks).toBe(1);
    expect(negotiationLatencies(timeline.tasks, new Map()).toComplete).toEqual([80]);
  });

  it('settles a task the tracker ends FAILED, once', () => {
    const timeline = new NegotiationTimeline('bench_agent');
    timeline.add(lifecycle('HandoffRequest', 'a', 0, REQUEST), 0);
    const failed = (code: string) =>
      lifecycle('ErrorNotification', 'a', 30_000, {
        error_code: code,
        error_message: code,
        severity: code === 'HANDOFF_TIMEOUT' ? 'WARNING' : 'CRITICAL',
        origin_agent_id: 'baton_tracker',
      });
    timeline.add(failed('HANDOFF_TIMEOUT'), 0);
    expect(timeline.settled).toBe(0);
    timeline.add(failed('HANDOFF_FAILED'), 0);
    timeline.add(failed('HANDOFF_FAILED'), 0);
    expect({ failed: timeline.failed, completed: timeline.completed, settled: timeline.settled }).toEqual({
      failed: 1,
      completed: 0,
      settled: 1,
    });
    expect(timeline.tasks.get('a')).toMatchObject({ failure: 'HANDOFF_FAILED', setbacks: 1 });
  });

  it('ignores staged contexts and records of no task', () => {
    const timeline = new NegotiationTimeline('bench_agent');
    timeline.add({ kind: 'staged', value: {} } as TaskEvent, 0);
    expect(timeline.tasks.size).toBe(0);
  });
});

describe('mattersToTimeline', () => {
  it('passes over staged contexts and outcomes other than COMPLETED, by CloudEvents type', () => {
    expect(mattersToTimeline('baton.lifecycle.StagedContext')).toBe(false);
    expect(mattersToTimeline('baton.outcome.ROUTED')).toBe(false);
    expect(mattersToTimeline('baton.outcome.HANDOFF_REQUESTED')).toBe(false);
    expect(mattersToTimeline('baton.outcome.COMPLETED')).toBe(true);
    for (const type of ['HandoffRequest', 'HandoffAccept', 'TaskContextTransfer', 'HandoffComplete']) {
      expect(mattersToTimeline(`baton.lifecycle.${type}`)).toBe(true);
    }
    expect(mattersToTimeline('baton.lifecycle.ErrorNotification')).toBe(true);
    // A record without the header is decoded, to be safe.
    expect(mattersToTimeline(undefined)).toBe(true);
  });
});
