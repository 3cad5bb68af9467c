import { describe, expect, it } from 'vitest';
import type { NegotiationAnswer, TaskAnswer, TimelineEvent } from '@baton/gateway-api';
import { formatTask } from './task-format.js';

const at = (second: number): string => `2026-11-22T10:00:0${second}.000Z`;
const reply = (second: number, id: string, type: string, from: string, correlation: string, detail: string) =>
  ({
    kind: 'lifecycle',
    time: at(second),
    message_id: id,
    message_type: type,
    sender: from,
    receiver: 'triage',
    correlation_id: correlation,
    detail,
  }) satisfies TimelineEvent;
const staged = (second: number, id: string): TimelineEvent => ({
  kind: 'staged',
  time: at(second),
  message_id: `${id}.staged`,
  sender: 'triage',
  context_mode: 'by-value',
  detail: 'context offered by value',
});
const request = (second: number, id: string, to: string, correlation?: string): TimelineEvent => ({
  kind: 'lifecycle',
  time: at(second),
  message_id: id,
  message_type: 'HandoffRequest',
  sender: 'triage',
  receiver: to,
  ...(correlation === undefined ? {} : { correlation_id: correlation }),
  detail: 'NetworkExpert: lacks the skill',
});
const terms = { desired_agent_type: 'NetworkExpert', reason: 'lacks the skill' };

/** Routed to triage, which negotiates: sales rejects and suggests expert, who accepts and takes the task. */
const negotiated: TaskAnswer = {
  task_id: 't-1',
  status: 'EXECUTING',
  owner: 'expert',
  parent_task_ids: [],
  children: [],
  events: [
    {
      kind: 'outcome',
      time: at(0),
      message_id: 'm-1',
      handoff_type: 'TASK_TRANSFER',
      sender: 'ops_console',
      receiver: 'triage',
      agent_id: 'router',
      outcome: 'ROUTED',
      target: 'triage',
    },
    staged(1, 'r1'),
    request(1, 'r1', 'sales'),
    reply(2, 'rj', 'HandoffReject', 'sales', 'r1', 'capability mismatch; suggests expert'),
    request(3, 'r2', 'expert', 'r1'),
    reply(4, 'ac', 'HandoffAccept', 'expert', 'r2', 'expects to take 5 s'),
    {
      kind: 'lifecycle',
      time: at(5),
      message_id: 'cx',
      message_type: 'TaskContextTransfer',
      sender: 'triage',
      receiver: 'expert',
      correlation_id: 'r2',
      detail: 'context by value',
    },
    reply(6, 'co', 'HandoffComplete', 'expert', 'r2', 'SUCCESS'),
  ],
  negotiations: [
    {
      negotiation_id: 'r1',
      sender_id: 'triage',
      terms,
      context_mode: 'by-value',
      staged_at: at(1),
      sender_state: 'TaskFinished',
      attempts: [
        {
          request_id: 'r1',
          receiver: 'sales',
          via: 'target',
          requested_at: at(1),
          receiver_state: 'Idle',
          rejection: { reason: 'capability mismatch', suggestions: ['expert'] },
        },
        {
          request_id: 'r2',
          receiver: 'expert',
          via: 'suggestion',
          requested_at: at(3),
          receiver_state: 'Active',
          accepted_at: at(4),
          context_sent_at: at(5),
          completed_at: at(6),
        },
      ],
      outcome: 'COMPLETED',
      ended_at: at(6),
    },
  ],
  refused: [],
  replies: [],
};

const refusal = {
  code: 'ILLEGAL_TRANSITION',
  side: 'sender',
  from: 'TaskFailed',
  event: 'AcceptReceived',
  message: "the sender's handoff has ended in TaskFailed; AcceptReceived cannot follow",
} as const;
const failedNegotiation: NegotiationAnswer = {
  negotiation_id: 'q1',
  sender_id: 'triage',
  terms,
  context_mode: 'by-value',
  staged_at: at(0),
  sender_state: 'TaskFailed',
  attempts: [
    {
      request_id: 'q1',
      receiver: 'expert',
      via: 'target',
      requested_at: at(0),
      receiver_state: 'Idle',
      failure: { code: 'HANDOFF_TIMEOUT', message: 'no answer from expert within 5000 ms' },
    },
  ],
  outcome: 'FAILED',
  ended_at: at(5),
  reason: 'every option is used up',
};

/** expert never answers, the tracker fails the task, and expert's late accept is refused. */
const failed: TaskAnswer = {
  task_id: 't-2',
  status: 'FAILED',
  owner: 'triage',
  parent_task_ids: [],
  children: [],
  events: [
    staged(0, 'q1'),
    request(0, 'q1', 'expert'),
    reply(5, 'to', 'ErrorNotification', 'tracker', 'q1', 'HANDOFF_TIMEOUT (WARNING): no answer'),
    reply(5, 'fa', 'ErrorNotification', 'tracker', 'q1', 'HANDOFF_FAILED (CRITICAL): used up'),
    { ...reply(7, 'la', 'HandoffAccept', 'expert', 'q1', 'expects to take 5 s'), refused: refusal },
  ],
  negotiations: [failedNegotiation],
  refused: [{ message_id: 'la', message_type: 'HandoffAccept', time: at(7), error: refusal }],
  replies: [],
};

describe('formatTask', () => {
  it('shows a negotiated task: every step with sender -> receiver, then the negotiation and its attempts', () => {
    expect(formatTask(negotiated)).toEqual([
      'task t-1: EXECUTING, held by expert, 8 events',
      'TIME                      AGENT   STEP                 TYPE           ROUTE                  TARGET  MESSAGE_ID  DETAIL',
      '2026-11-22T10:00:00.000Z  router  ROUTED               TASK_TRANSFER  ops_console -> triage  triage  m-1         -',
      '2026-11-22T10:00:01.000Z  triage  staged               -              -                      -       r1.staged   context offered by value',
      '2026-11-22T10:00:01.000Z  triage  HandoffRequest       -              triage -> sales        -       r1          NetworkExpert: lacks the skill',
      '2026-11-22T10:00:02.000Z  sales   HandoffReject        -              sales -> triage        -       rj          capability mismatch; suggests expert',
      '2026-11-22T10:00:03.000Z  triage  HandoffRequest       -              triage -> expert       -       r2          NetworkExpert: lacks the skill',
      '2026-11-22T10:00:04.000Z  expert  HandoffAccept        -              expert -> triage       -       ac          expects to take 5 s',
      '2026-11-22T10:00:05.000Z  triage  TaskContextTransfer  -              triage -> expert       -       cx          context by value',
      '2026-11-22T10:00:06.000Z  expert  HandoffComplete      -              expert -> triage       -       co          SUCCESS',
      '',
      'negotiation r1: COMPLETED, sender triage in TaskFinished, ended 2026-11-22T10:00:06.000Z',
      'RECEIVER  VIA         STATE                  REQUESTED                 ENDED',
      'sales     target      Idle                   2026-11-22T10:00:01.000Z  rejected: capability mismatch; suggests expert',
      'expert    suggestion  Active: took the task  2026-11-22T10:00:03.000Z  completed',
    ]);
  });

  it('shows a FAILED task: why it failed, each attempt’s failure, and the refused step marked', () => {
    expect(formatTask(failed)).toEqual([
      'task t-2: FAILED, held by triage, 5 events',
      'TIME                      AGENT    STEP                     TYPE  ROUTE              TARGET  MESSAGE_ID  DETAIL',
      '2026-11-22T10:00:00.000Z  triage   staged                   -     -                  -       q1.staged   context offered by value',
      '2026-11-22T10:00:00.000Z  triage   HandoffRequest           -     triage -> expert   -       q1          NetworkExpert: lacks the skill',
      '2026-11-22T10:00:05.000Z  tracker  ErrorNotification        -     tracker -> triage  -       to          HANDOFF_TIMEOUT (WARNING): no answer',
      '2026-11-22T10:00:05.000Z  tracker  ErrorNotification        -     tracker -> triage  -       fa          HANDOFF_FAILED (CRITICAL): used up',
      "2026-11-22T10:00:07.000Z  expert   HandoffAccept (refused)  -     expert -> triage   -       la          expects to take 5 s; the sender's handoff has ended in TaskFailed; AcceptReceived cannot follow",
      '',
      'negotiation q1: FAILED, sender triage in TaskFailed, ended 2026-11-22T10:00:05.000Z: every option is used up',
      'RECEIVER  VIA     STATE  REQUESTED                 ENDED',
      'expert    target  Idle   2026-11-22T10:00:00.000Z  HANDOFF_TIMEOUT: no answer from expert within 5000 ms',
    ]);
  });

  it('shows a task without negotiations: its status, its outcome steps and the replies to the user, in full', () => {
    const finished: TaskAnswer = {
      ...negotiated,
      status: 'FINISH',
      owner: null,
      events: negotiated.events.slice(0, 1),
      negotiations: [],
      replies: [
        {
          kind: 'reply',
          message_id: 'n-1',
          time: at(2),
          agent_id: 'triage',
          message: 'Your refund of 30 EUR is on its way; it shows on your card within five days.',
        },
      ],
    };
    expect(formatTask(finished)).toEqual([
      'task t-1: FINISH, 1 events',
      'TIME                      AGENT   STEP    TYPE           ROUTE                  TARGET  MESSAGE_ID  DETAIL',
      '2026-11-22T10:00:00.000Z  router  ROUTED  TASK_TRANSFER  ops_console -> triage  triage  m-1         -',
      '',
      'replies to the user:',
      '  2026-11-22T10:00:02.000Z  triage  Your refund of 30 EUR is on its way; it shows on your card within five days.',
    ]);
  });
});
