import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildLifecycleMessage,
  nameBasedUuid,
  type HandoffTerms,
  type Immutable,
  type LifecycleMessage,
  type LifecycleMessageType,
  type LifecyclePayloadByType,
  type TaskEvent,
} from '@baton/protocol';
import { createLogger, createServiceMetrics } from '@baton/runtime';
import type { UserReply } from '@baton/gateway-api';
import { TaskBook } from '@baton/task-tracking';
import { parseApiKeys } from '../access/api-keys.js';
import type { GatewayParts } from '../gateway-parts.js';
import { buildGatewayHttp } from '../http/gateway-app.js';
import { TaskReplies } from '../timeline/task-replies.js';

const T0 = Date.parse('2026-11-22T10:00:00.000Z');
/** The time of the n-th second after T0, as the events carry it. */
const at = (second: number): string => new Date(T0 + second * 1_000).toISOString();
/** Message ids must be UUIDs: tests name them, and this turns a name into its UUID. */
const u = (name: string): string => nameBasedUuid(name);

function lifecycle<T extends LifecycleMessageType>(
  task: string,
  second: number,
  type: T,
  route: { from: string; to: string; id: string; correlation?: string },
  payload: LifecyclePayloadByType[T],
): TaskEvent {
  const value = buildLifecycleMessage(
    type,
    {
      sender_id: route.from,
      receiver_id: route.to,
      task_id: task,
      ...(route.correlation === undefined ? {} : { correlation_id: u(route.correlation) }),
      payload,
    },
    { newId: () => u(route.id), now: () => new Date(at(second)) },
  );
  return { kind: 'lifecycle', value: value as Immutable<LifecycleMessage> };
}

function staged(task: string, second: number, requestId: string, terms: Partial<HandoffTerms> = {}): TaskEvent {
  return {
    kind: 'staged',
    value: {
      request_message_id: u(requestId),
      task_id: task,
      sender_id: 'triage',
      staged_at: at(second),
      context: { context_data: { task_description: 'router reboot loop' } },
      terms: { desired_agent_type: 'NetworkExpert', reason: 'lacks the skill', ...terms },
    },
  };
}

function request(task: string, second: number, to: string, id: string, correlation?: string): TaskEvent {
  return lifecycle(
    task,
    second,
    'HandoffRequest',
    { from: 'triage', to, id, ...(correlation === undefined ? {} : { correlation }) },
    {
      reason: 'lacks the skill',
      desired_agent_type: 'NetworkExpert',
      priority: 'HIGH',
      initial_context_summary: 'loop',
    },
  );
}

/** Routed to triage, which negotiates: sales rejects and suggests expert, who accepts and takes the task. */
const NEGOTIATED = 'task-negotiated';
const negotiated: TaskEvent[] = [
  {
    kind: 'outcome',
    value: {
      event_id: 'e-routed',
      time: at(0),
      task_id: NEGOTIATED,
      message_id: 'm-1',
      agent_id: 'router',
      handoff_type: 'TASK_TRANSFER',
      sender_id: 'ops_console',
      recipient_id: 'triage',
      outcome: 'ROUTED',
      target: 'triage',
    },
  },
  staged(NEGOTIATED, 1, 'r1'),
  request(NEGOTIATED, 1, 'sales', 'r1'),
  lifecycle(
    NEGOTIATED,
    2,
    'HandoffReject',
    { from: 'sales', to: 'triage', id: 'reject', correlation: 'r1' },
    { reason: 'capability mismatch', alternative_agent_suggestions: ['expert'] },
  ),
  request(NEGOTIATED, 3, 'expert', 'r2', 'r1'),
  lifecycle(
    NEGOTIATED,
    4,
    'HandoffAccept',
    { from: 'expert', to: 'triage', id: 'accept', correlation: 'r2' },
    { estimated_handoff_time: 5 },
  ),
  lifecycle(
    NEGOTIATED,
    5,
    'TaskContextTransfer',
    { from: 'triage', to: 'expert', id: 'context', correlation: 'r2' },
    { context_data: { task_description: 'router reboot loop' } },
  ),
  lifecycle(
    NEGOTIATED,
    6,
    'HandoffComplete',
    { from: 'expert', to: 'triage', id: 'complete', correlation: 'r2' },
    { handoff_status: 'SUCCESS' },
  ),
];

const notice = (task: string, second: number, id: string, code: string, severity: 'WARNING' | 'CRITICAL') =>
  lifecycle(
    task,
    second,
    'ErrorNotification',
    { from: 'tracker', to: 'triage', id, correlation: 'q1' },
    { error_code: code, error_message: `${code} happened`, severity, origin_agent_id: 'tracker' },
  );

/** expert never answers; with no strategy the tracker fails the task, then expert's late accept is refused. */
const FAILED = 'task-failed';
const failed: TaskEvent[] = [
  staged(FAILED, 0, 'q1'),
  request(FAILED, 0, 'expert', 'q1'),
  notice(FAILED, 5, 'timeout', 'HANDOFF_TIMEOUT', 'WARNING'),
  notice(FAILED, 5, 'failed', 'HANDOFF_FAILED', 'CRITICAL'),
  lifecycle(
    FAILED,
    7,
    'HandoffAccept',
    { from: 'expert', to: 'triage', id: 'late-accept', correlation: 'q1' },
    { estimated_handoff_time: 5 },
  ),
];

/** What expert told the user once it had the task. */
const REPLY: UserReply = {
  kind: 'reply',
  message_id: 'n-1',
  time: at(7),
  agent_id: 'expert',
  message: 'Your router is back up.',
};

const VIEWER = 'viewer-token';
let app: FastifyInstance;

beforeAll(async () => {
  const tasks = new TaskBook();
  for (const event of [...negotiated, ...failed]) tasks.apply(event);
  const replies = new TaskReplies();
  replies.add(NEGOTIATED, REPLY);
  app = (
    await buildGatewayHttp({
      port: 0,
      host: '127.0.0.1',
      // The task routes read the book only; the other parts are never reached.
      parts: { tasks, replies } as unknown as GatewayParts,
      apiKeys: parseApiKeys(`viewer:${VIEWER}:viewer`),
      logger: createLogger('gateway-test', 'silent'),
      metrics: createServiceMetrics({ service: 'gateway-test' }),
      metricsOfRequest: () => undefined,
      isReady: () => true,
    })
  ).app;
});

afterAll(async () => {
  await app?.close();
});

async function getTask(taskId: string) {
  const answer = await app.inject({ method: 'GET', url: `/v1/tasks/${taskId}`, headers: { 'x-api-key': VIEWER } });
  return { status: answer.statusCode, body: answer.json() };
}

async function listTasks(query: string) {
  const answer = await app.inject({ method: 'GET', url: `/v1/tasks?${query}`, headers: { 'x-api-key': VIEWER } });
  return { status: answer.statusCode, body: answer.json() };
}

const idsOf = (body: { tasks: { task_id: string }[] }) => body.tasks.map((task) => task.task_id);

describe('GET /v1/tasks', () => {
  it('lists every task newest first, a row each with what the list filters by', async () => {
    const { status, body } = await listTasks('');
    expect(status).toBe(200);
    expect(idsOf(body)).toEqual([NEGOTIATED, FAILED]);
    expect(body.total).toBe(2);
    expect(body.tasks[1]).toEqual({
      task_id: FAILED,
      status: 'FAILED',
      owner: 'triage',
      handoff_types: [],
      issue_categories: [],
      agents: ['triage', 'expert', 'tracker'],
      error_codes: ['HANDOFF_TIMEOUT', 'HANDOFF_FAILED'],
      correlation_id: u('q1'),
      parent_task_ids: [],
      events: 5,
      created_at: at(0),
      updated_at: at(7),
    });
  });

  it.each([
    ['status=EXECUTING', [NEGOTIATED]],
    ['status=FAILED,EXPIRED', [FAILED]],
    ['error_code=HANDOFF_TIMEOUT', [FAILED]],
    ['agent=sales', [NEGOTIATED]],
    ['agent=expert', [NEGOTIATED, FAILED]],
    ['handoff_type=TASK_TRANSFER', [NEGOTIATED]],
    ['q=negotiated', [NEGOTIATED]],
    [`from=${encodeURIComponent(at(7))}`, [FAILED]],
    [`correlation_id=m-1`, [NEGOTIATED]],
    [`correlation_id=${u('r1')}`, [NEGOTIATED]],
    ['correlation_id=nope', []],
  ])('filters by %s', async (query, expected) => {
    const { status, body } = await listTasks(query);
    expect(status).toBe(200);
    expect(idsOf(body)).toEqual(expected);
    expect(body.total).toBe(expected.length);
  });

  it('pages with the cursor it gives', async () => {
    const first = await listTasks('limit=1');
    expect([idsOf(first.body), first.body.total]).toEqual([[NEGOTIATED], 2]);
    const second = await listTasks(`limit=1&cursor=${first.body.next_cursor}`);
    expect(idsOf(second.body)).toEqual([FAILED]);
    expect(second.body.next_cursor).toBeUndefined();
  });

  it.each([
    ['status=DONE', '/status'],
    ['limit=0', '/limit'],
    ['from=yesterday', '/from'],
    ['cursor=bm90LWEtY3Vyc29y', '/cursor'],
  ])('refuses %s as REQUEST_INVALID at its field', async (query, path) => {
    const { status, body } = await listTasks(query);
    expect(status).toBe(400);
    expect(body.error.code).toBe('REQUEST_INVALID');
    expect(JSON.stringify(body.error)).toContain(path);
  });
});

describe('GET /v1/tasks/{task_id}', () => {
  it('answers a negotiated task: every kind of step in topic order, and the negotiation with each attempt', async () => {
    const { status, body } = await getTask(NEGOTIATED);
    expect(status).toBe(200);
    expect(body).toEqual({
      task_id: NEGOTIATED,
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
        {
          kind: 'staged',
          time: at(1),
          message_id: `${u('r1')}.staged`,
          sender: 'triage',
          context_mode: 'by-value',
          detail: 'context offered by value',
        },
        {
          kind: 'lifecycle',
          time: at(1),
          message_id: u('r1'),
          message_type: 'HandoffRequest',
          sender: 'triage',
          receiver: 'sales',
          detail: 'NetworkExpert: lacks the skill',
        },
        {
          kind: 'lifecycle',
          time: at(2),
          message_id: u('reject'),
          message_type: 'HandoffReject',
          sender: 'sales',
          receiver: 'triage',
          correlation_id: u('r1'),
          detail: 'capability mismatch; suggests expert',
        },
        {
          kind: 'lifecycle',
          time: at(3),
          message_id: u('r2'),
          message_type: 'HandoffRequest',
          sender: 'triage',
          receiver: 'expert',
          correlation_id: u('r1'),
          detail: 'NetworkExpert: lacks the skill',
        },
        {
          kind: 'lifecycle',
          time: at(4),
          message_id: u('accept'),
          message_type: 'HandoffAccept',
          sender: 'expert',
          receiver: 'triage',
          correlation_id: u('r2'),
          detail: 'expects to take 5 s',
        },
        {
          kind: 'lifecycle',
          time: at(5),
          message_id: u('context'),
          message_type: 'TaskContextTransfer',
          sender: 'triage',
          receiver: 'expert',
          correlation_id: u('r2'),
          detail: 'context by value',
        },
        {
          kind: 'lifecycle',
          time: at(6),
          message_id: u('complete'),
          message_type: 'HandoffComplete',
          sender: 'expert',
          receiver: 'triage',
          correlation_id: u('r2'),
          detail: 'SUCCESS',
        },
      ],
      negotiations: [
        {
          negotiation_id: u('r1'),
          sender_id: 'triage',
          terms: { desired_agent_type: 'NetworkExpert', reason: 'lacks the skill' },
          context_mode: 'by-value',
          staged_at: at(1),
          sender_state: 'TaskFinished',
          attempts: [
            {
              request_id: u('r1'),
              receiver: 'sales',
              via: 'target',
              requested_at: at(1),
              receiver_state: 'Idle',
              rejection: { reason: 'capability mismatch', suggestions: ['expert'] },
            },
            {
              request_id: u('r2'),
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
      replies: [REPLY],
    });
  });

  it('answers a FAILED task: the tracker’s notices, the reason, and a late accept marked refused', async () => {
    const { status, body } = await getTask(FAILED);
    expect(status).toBe(200);
    const refusal = {
      code: 'ILLEGAL_TRANSITION',
      side: 'sender',
      from: 'TaskFailed',
      event: 'AcceptReceived',
      message: "the sender's handoff has ended in TaskFailed; AcceptReceived cannot follow",
    };
    expect(body).toMatchObject({ task_id: FAILED, status: 'FAILED', owner: 'triage' });
    expect(body.events.slice(2)).toEqual([
      {
        kind: 'lifecycle',
        time: at(5),
        message_id: u('timeout'),
        message_type: 'ErrorNotification',
        sender: 'tracker',
        receiver: 'triage',
        correlation_id: u('q1'),
        detail: 'HANDOFF_TIMEOUT (WARNING): HANDOFF_TIMEOUT happened',
      },
      {
        kind: 'lifecycle',
        time: at(5),
        message_id: u('failed'),
        message_type: 'ErrorNotification',
        sender: 'tracker',
        receiver: 'triage',
        correlation_id: u('q1'),
        detail: 'HANDOFF_FAILED (CRITICAL): HANDOFF_FAILED happened',
      },
      {
        kind: 'lifecycle',
        time: at(7),
        message_id: u('late-accept'),
        message_type: 'HandoffAccept',
        sender: 'expert',
        receiver: 'triage',
        correlation_id: u('q1'),
        detail: 'expects to take 5 s',
        refused: refusal,
      },
    ]);
    expect(body.negotiations).toEqual([
      expect.objectContaining({
        sender_state: 'TaskFailed',
        outcome: 'FAILED',
        ended_at: at(5),
        reason: 'HANDOFF_FAILED happened',
        attempts: [
          {
            request_id: u('q1'),
            receiver: 'expert',
            via: 'target',
            requested_at: at(0),
            receiver_state: 'Idle',
            failure: { code: 'HANDOFF_TIMEOUT', message: 'HANDOFF_TIMEOUT happened' },
          },
        ],
      }),
    ]);
    expect(body.refused).toEqual([
      { message_id: u('late-accept'), message_type: 'HandoffAccept', time: at(7), error: refusal },
    ]);
    expect(body.replies).toEqual([]);
  });

  it('answers 404 TASK_NOT_FOUND for a task with no event', async () => {
    const { status, body } = await getTask('nope');
    expect([status, body.error.code, body.error.path]).toEqual([404, 'TASK_NOT_FOUND', '/task_id']);
  });

  it('shows the answer in the OpenAPI document: the new statuses and the three kinds of step', async () => {
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const answer = document.paths['/v1/tasks/{task_id}'].get.responses['200'].content['application/json'].schema;
    expect(answer.properties.status.enum).toEqual([
      'CREATE',
      'EXECUTING',
      'WAITING',
      'BREAK',
      'FINISH',
      'FAILED',
      'EXPIRED',
    ]);
    expect(answer.properties.events.items.oneOf.map((step: any) => step.properties.kind.enum)).toEqual([
      ['outcome'],
      ['lifecycle'],
      ['staged'],
    ]);
    expect(answer.required).toEqual(expect.arrayContaining(['negotiations', 'refused']));
  });
});
