import { describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import type { CliIo } from './context.js';
import { EXIT } from './errors.js';

type Route = (body: any) => { status: number; body: unknown };

/** A gateway of canned answers by `METHOD path`, recording the calls. */
function fakeGateway(routes: Record<string, Route>) {
  const calls: { method: string; path: string; body: unknown; authorization?: string }[] = [];
  const fetch = (async (url: string, init: RequestInit): Promise<Response> => {
    const path = url.replace('http://gw', '');
    const method = init.method ?? 'GET';
    const body = init.body === undefined ? undefined : JSON.parse(String(init.body));
    calls.push({ method, path, body, authorization: (init.headers as Record<string, string>).authorization });
    const route = routes[`${method} ${path}`];
    const answer = route
      ? route(body)
      : { status: 404, body: { error: { code: 'ROUTE_NOT_FOUND', message: `no ${method} ${path}` } } };
    return new Response(JSON.stringify(answer.body), { status: answer.status });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

async function run(argv: string[], fetch: typeof globalThis.fetch, stdin = '') {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    readStdin: async () => stdin,
    stdinIsTty: false,
    env: { BATON_GATEWAY_URL: 'http://gw', BATON_TOKEN: 'tok-123' },
    signal: new AbortController().signal,
    fetch,
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

function job(state: string, replayed: number, failed = 0, errors: unknown[] = []) {
  return {
    job_id: 'j1',
    state,
    dlq_topic: 'in.dlq',
    rate_per_second: 5,
    plan: {
      count: 2,
      targets: { in: 2 },
      items: [
        { id: '0-1', message_id: 'm1', task_id: 't1', target_topic: 'in' },
        { id: '0-2', message_id: 'm2', task_id: 't2', target_topic: 'in' },
      ],
    },
    progress: { total: 2, replayed, refused: 0, failed, remaining: 2 - replayed - failed },
    errors,
  };
}

describe('runCli with a fake gateway', () => {
  it('plans a bulk replay as a dry run, prints the plan and stops the planned job', async () => {
    const gateway = fakeGateway({
      'POST /v1/replays': () => ({ status: 201, body: job('planned', 0) }),
      'POST /v1/replays/j1/stop': () => ({ status: 200, body: job('stopped', 0) }),
    });
    const result = await run(
      ['dlq', 'replay', 'in.dlq', '--error-code', 'NO_ROUTE', '--reason', 'fixed', '--rate', '5', '--dry-run'],
      gateway.fetch,
    );
    expect(result.code).toBe(EXIT.OK);
    expect(gateway.calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'POST /v1/replays',
      'POST /v1/replays/j1/stop',
    ]);
    expect(gateway.calls[0]?.body).toEqual({
      dlq_topic: 'in.dlq',
      reason: 'fixed',
      filter: { error_code: 'NO_ROUTE' },
      rate_per_second: 5,
    });
    expect(result.stdout).toContain('replay job j1: 2 dead letters of in.dlq at 5/s');
    expect(result.stdout).toMatch(/0-2\s+t2\s+m2\s+in/);
    expect(result.stdout).toContain('dry run: nothing replayed');
  });

  it('starts a bulk replay, follows it to the end and exits 4 when an item failed', async () => {
    const failed = job('completed', 1, 1, [{ id: '0-2', code: 'KAFKA_UNAVAILABLE', message: 'no broker' }]);
    const gateway = fakeGateway({
      'POST /v1/replays': () => ({ status: 201, body: job('planned', 0) }),
      'POST /v1/replays/j1/start': () => ({ status: 200, body: job('running', 0) }),
      'GET /v1/replays/j1': () => ({ status: 200, body: failed }),
    });
    const result = await run(['dlq', 'replay', 'in.dlq', '--all', '--reason', 'fixed', '--json'], gateway.fetch);
    expect(result.code).toBe(EXIT.REPLAY_FAILED);
    expect(JSON.parse(result.stdout)).toEqual(failed);
    expect(result.stderr).toContain('replay j1 running: 0/2 replayed, 0 refused, 0 failed, 2 remaining');
    expect(result.stderr).toContain('replay j1 completed: 1/2 replayed, 0 refused, 1 failed, 0 remaining');
    expect(result.stderr).toContain('failed 0-2: KAFKA_UNAVAILABLE: no broker');
    expect(result.stderr).toContain('error REPLAY_INCOMPLETE');
  });

  it('lists tasks with the filters it is given, a row each with its age and last outcome, and the next page', async () => {
    const created = new Date(Date.now() - 3 * 3_600_000 - 20 * 60_000).toISOString();
    const updated = new Date(Date.now() - 7 * 60_000).toISOString();
    const path = '/v1/tasks?status=STUCK%2CBREAK&agent=refunds_agent&q=t-4&limit=2';
    const gateway = fakeGateway({
      [`GET ${path}`]: () => ({
        status: 200,
        body: {
          tasks: [
            {
              task_id: 't-42',
              status: 'EXECUTING',
              stuck: 'silent',
              owner: 'refunds_agent',
              handoff_types: ['TASK_TRANSFER', 'ESCALATION'],
              issue_categories: ['BILLING'],
              agents: ['router', 'refunds_agent'],
              error_codes: ['MODEL_UNAVAILABLE'],
              parent_task_ids: [],
              last_outcome: {
                outcome: 'DEAD_LETTERED',
                agent_id: 'refunds_agent',
                time: updated,
                error_code: 'MODEL_UNAVAILABLE',
              },
              events: 4,
              created_at: created,
              updated_at: updated,
            },
          ],
          total: 3,
          next_cursor: 'abc',
        },
      }),
    });
    const result = await run(
      ['tasks', '--status', 'stuck,break', '--agent', 'refunds_agent', '--search', 't-4', '--limit', '2'],
      gateway.fetch,
    );
    expect([result.code, result.stderr]).toEqual([EXIT.OK, '']);
    expect(result.stdout.split('\n')).toEqual([
      'TASK  STATUS                     OWNER          HANDOFF TYPES                AGE  IDLE  LAST OUTCOME',
      't-42  EXECUTING (stuck: silent)  refunds_agent  TASK_TRANSFER,ESCALATION  3h 20m    7m  DEAD_LETTERED by refunds_agent (MODEL_UNAVAILABLE)',
      '1 of 3; next page: --cursor abc',
      '',
    ]);
  });

  it('refuses a tasks filter that is no instant before asking the gateway', async () => {
    const gateway = fakeGateway({});
    const result = await run(['tasks', '--from', 'yesterday'], gateway.fetch);
    expect(result.code).toBe(EXIT.USAGE);
    expect(result.stderr).toContain('--from must be an ISO 8601 date-time');
    expect(gateway.calls).toEqual([]);
  });

  it('shows a task as a table with its negotiations, and with --json prints the answer as is', async () => {
    const answer = {
      task_id: 't-3',
      status: 'WAITING',
      owner: 'triage',
      parent_task_ids: [],
      children: [],
      events: [
        {
          kind: 'lifecycle',
          time: '2026-11-22T10:00:00.000Z',
          message_id: 'r1',
          message_type: 'HandoffRequest',
          sender: 'triage',
          receiver: 'expert',
          detail: 'NetworkExpert: lacks the skill',
        },
      ],
      negotiations: [
        {
          negotiation_id: 'r1',
          sender_id: 'triage',
          terms: { desired_agent_type: 'NetworkExpert', reason: 'lacks the skill' },
          context_mode: 'by-value',
          staged_at: '2026-11-22T10:00:00.000Z',
          sender_state: 'AwaitingHandoffAccept',
          attempts: [
            {
              request_id: 'r1',
              receiver: 'expert',
              via: 'target',
              requested_at: '2026-11-22T10:00:00.000Z',
              receiver_state: 'Idle',
            },
          ],
          outcome: 'OPEN',
        },
      ],
      refused: [],
      replies: [],
      // A field this CLI does not know yet is printed too: --json is the gateway's answer.
      added_later: true,
    };
    const gateway = fakeGateway({ 'GET /v1/tasks/t-3': () => ({ status: 200, body: answer }) });
    const table = await run(['task', 't-3'], gateway.fetch);
    expect(table.code).toBe(EXIT.OK);
    expect(table.stdout.split('\n')).toEqual([
      'task t-3: WAITING, held by triage, 1 events',
      'TIME                      AGENT   STEP            TYPE  ROUTE             TARGET  MESSAGE_ID  DETAIL',
      '2026-11-22T10:00:00.000Z  triage  HandoffRequest  -     triage -> expert  -       r1          NetworkExpert: lacks the skill',
      '',
      'negotiation r1: OPEN, sender triage in AwaitingHandoffAccept',
      'RECEIVER  VIA     STATE  REQUESTED                 ENDED',
      'expert    target  Idle   2026-11-22T10:00:00.000Z  -',
      '',
    ]);
    const json = await run(['task', 't-3', '--json'], gateway.fetch);
    expect(JSON.parse(json.stdout)).toEqual(answer);
  });

  it('follows a task: each step and reply as a line, resuming after the last event when the stream breaks', async () => {
    const step = (message_id: string, outcome: string) =>
      JSON.stringify({
        kind: 'outcome',
        time: '2026-11-24T10:00:00.000Z',
        message_id,
        handoff_type: 'TASK_TRANSFER',
        agent_id: 'router',
        outcome,
      });
    const streams = [
      `retry: 1000\n\nid: 1.0\nevent: step\ndata: ${step('m1', 'ROUTED')}\n\nid: 1.1\nevent: reply\ndata: ` +
        `{"kind":"reply","time":"2026-11-24T10:00:01.000Z","agent_id":"triage_agent","message":"Which item?"}\n\n`,
      `id: 2.1\nevent: step\ndata: ${step('m2', 'COMPLETED')}\n\n`,
    ];
    const resumedFrom: (string | undefined)[] = [];
    const fetch = (async (url: string, init: RequestInit) => {
      expect(url).toBe('http://gw/v1/tasks/t-9/events');
      resumedFrom.push((init.headers as Record<string, string>)['last-event-id']);
      // Each stream ends after its events, as a gateway that restarts would end it.
      return new Response(streams.shift() ?? '', { status: 200, headers: { 'content-type': 'text/event-stream' } });
    }) as unknown as typeof globalThis.fetch;
    const result = await run(['task', 't-9', '--follow', '--max', '3'], fetch);
    expect(result.code).toBe(EXIT.OK);
    expect(result.stdout.split('\n')).toEqual([
      '2026-11-24T10:00:00.000Z  router  ROUTED  TASK_TRANSFER  m1',
      '2026-11-24T10:00:01.000Z  triage_agent  REPLY  Which item?',
      '2026-11-24T10:00:00.000Z  router  COMPLETED  TASK_TRANSFER  m2',
      '',
    ]);
    expect(resumedFrom).toEqual([undefined, '1.1']);
  });

  it('prints the overview: attention first, the agents, dead letters by code and topic, outcomes per minute', async () => {
    const answer = {
      generated_at: '2026-11-24T10:15:00.000Z',
      attention: [
        { kind: 'dead_letters', subject: 'b.handoffs.inbound.dlq', detail: '2 dead letters from b.handoffs.inbound' },
      ],
      agents: [
        {
          agent_id: 'router',
          group_id: 'b.router',
          up: true,
          state: 'Stable',
          lag: 0,
          instances: [{ instance_id: 'r1', host: 'h' }],
          live: null,
          card: null,
          registrations: [],
        },
        {
          agent_id: 'sales_agent',
          group_id: 'b.agent.sales_agent',
          up: true,
          state: 'Stable',
          lag: 4,
          instances: [{ instance_id: 's1', host: 'h' }],
          live: true,
          card: null,
          registrations: [],
        },
      ],
      dead_letters: {
        total: 2,
        by_error_code: [{ error_code: 'NO_ROUTE', count: 2 }],
        by_topic: [{ topic: 'b.handoffs.inbound.dlq', source_topic: 'b.handoffs.inbound', count: 2 }],
        empty_topics: 3,
      },
      outcomes: {
        window_minutes: 2,
        per_minute: [
          { minute: '2026-11-24T10:14:00.000Z', outcomes: { ROUTED: 3 } },
          { minute: '2026-11-24T10:15:00.000Z', outcomes: { ROUTED: 1, COMPLETED: 12 } },
        ],
      },
    };
    const gateway = fakeGateway({ 'GET /v1/overview': () => ({ status: 200, body: answer }) });
    const result = await run(['overview'], gateway.fetch);
    expect(result.code).toBe(EXIT.OK);
    expect(result.stdout.split('\n')).toEqual([
      'attention:',
      '  KIND          SUBJECT                 DETAIL',
      '  dead_letters  b.handoffs.inbound.dlq  2 dead letters from b.handoffs.inbound',
      '',
      'AGENT        STATUS  STATE   LIVE  LAG  INSTANCES  INSTANCE (HOST)  GROUP',
      'router       up      Stable  -       0          1  r1 (h)           b.router',
      'sales_agent  up      Stable  yes     4          1  s1 (h)           b.agent.sales_agent',
      '',
      'dead letters: 2 (1 topic holds some, 3 empty)',
      'ERROR_CODE  COUNT',
      'NO_ROUTE        2',
      '',
      'DLQ_TOPIC               COUNT',
      'b.handoffs.inbound.dlq      2',
      '',
      'outcomes per minute, last 2 minutes (UTC):',
      'MINUTE  ROUTED  COMPLETED',
      '10:14        3          0',
      '10:15        1         12',
      '',
    ]);
  });

  it('prints the gateway error with its path and exits 2, never printing the token', async () => {
    const gateway = fakeGateway({});
    const result = await run(['task', 'nope'], gateway.fetch);
    expect(result.code).toBe(EXIT.REFUSED);
    expect(result.stderr).toBe('error ROUTE_NOT_FOUND: no GET /v1/tasks/nope\n');
    expect(gateway.calls[0]?.authorization).toBe('Bearer tok-123');
    expect(result.stdout + result.stderr).not.toContain('tok-123');
  });

  it('publishes from standard input what the builder made, and refuses an invalid one without a request', async () => {
    const gateway = fakeGateway({
      'POST /v1/handoffs': (body) => ({
        status: 202,
        body: {
          message_id: body.metadata.message_id,
          task_id: body.metadata.task_id,
          topic: 'in',
          partition: 0,
          offset: '4',
        },
      }),
    });
    const draft = {
      metadata: { sender_id: 'ops', recipient_id: 'probe_agent', task_id: 't-9' },
      payload: { handoff_type: 'STATUS_UPDATE', data: { status: 'IN_PROGRESS', details: 'x' } },
    };
    const published = await run(['publish', '-'], gateway.fetch, JSON.stringify(draft));
    expect(published.code).toBe(EXIT.OK);
    expect(gateway.calls[0]?.body).toMatchObject({
      metadata: { task_id: 't-9', priority: 'MEDIUM', protocol_version: '1.0.0' },
    });
    expect(published.stdout).toMatch(/^message_id {2}[0-9a-f-]{36}\ntask_id {5}t-9\n/);

    const invalid = await run(['publish'], gateway.fetch, JSON.stringify({ ...draft, metadata: {} }));
    expect(invalid.code).toBe(EXIT.USAGE);
    expect(invalid.stderr).toContain(
      'error VALIDATION_FAILED: standard input: invalid handoff, 3 issues; nothing published',
    );
    expect(invalid.stderr).toContain('  FIELD_REQUIRED /metadata/task_id:');
    expect(gateway.calls).toHaveLength(1);
  });
});

describe('baton negotiate with a fake gateway', () => {
  const draft = {
    metadata: { sender_id: 'ops', recipient_id: 'probe_agent', task_id: 't-7' },
    payload: { handoff_type: 'STATUS_UPDATE', data: { status: 'IN_PROGRESS' } },
  };
  const accepted = { negotiation_id: 'n-1', task_id: 't-7', receiver: 'probe_agent', context_mode: 'by-value' };
  const args = ['negotiate', '-', '--desired-agent-type', 'probe', '--reason', 'needs a probe'];

  it('sends the built handoff with the type and reason, and prints the 202 answer, or it raw with --json', async () => {
    const gateway = fakeGateway({ 'POST /v1/negotiations': () => ({ status: 202, body: accepted }) });
    const result = await run(args, gateway.fetch, JSON.stringify(draft));
    expect(result.code).toBe(EXIT.OK);
    expect(gateway.calls[0]?.body).toMatchObject({
      handoff: { metadata: { task_id: 't-7', priority: 'MEDIUM', message_id: expect.any(String) } },
      desired_agent_type: 'probe',
      reason: 'needs a probe',
    });
    expect(result.stdout).toBe(
      'negotiation_id  n-1\ntask_id         t-7\nreceiver        probe_agent\ncontext         by-value\n',
    );
    expect(result.stderr).toBe('follow it with: baton task t-7\n');
    const json = await run([...args, '--json'], gateway.fetch, JSON.stringify(draft));
    expect(JSON.parse(json.stdout)).toEqual(accepted);
  });

  it('refuses locally, exit 1 and no request: a missing or blank option, an invalid handoff, several recipients', async () => {
    const gateway = fakeGateway({});
    const noReason = await run(['negotiate', '-', '--desired-agent-type', 'x'], gateway.fetch, JSON.stringify(draft));
    expect([noReason.code, noReason.stderr]).toEqual([EXIT.USAGE, 'error USAGE: negotiate needs --reason\n']);
    const blank = await run([...args, '--desired-agent-type', ' '], gateway.fetch, JSON.stringify(draft));
    expect(blank.stderr).toBe('error USAGE: negotiate needs --desired-agent-type\n');
    const invalid = await run(args, gateway.fetch, JSON.stringify({ ...draft, metadata: {} }));
    expect(invalid.stderr).toContain('invalid handoff, 3 issues; nothing sent');
    const several = { ...draft, metadata: { ...draft.metadata, recipient_id: ['a', 'b'] } };
    const two = await run(args, gateway.fetch, JSON.stringify(several));
    expect([two.code, two.stderr]).toEqual([
      EXIT.USAGE,
      'error VALIDATION_FAILED at /metadata/recipient_id: standard input: a negotiated handoff names exactly one recipient; nothing sent\n' +
        '  FIELD_INVALID /metadata/recipient_id: names 2 recipients, not 1\n',
    ]);
    expect(gateway.calls).toEqual([]);
  });

  it('exits 2 when the gateway refuses, 3 when Kafka is unavailable', async () => {
    const refusing = fakeGateway({
      'POST /v1/negotiations': () => ({ status: 400, body: { error: { code: 'VALIDATION_FAILED', message: 'no' } } }),
    });
    expect((await run(args, refusing.fetch, JSON.stringify(draft))).code).toBe(EXIT.REFUSED);
    const down = fakeGateway({
      'POST /v1/negotiations': () => ({ status: 503, body: { error: { code: 'KAFKA_UNAVAILABLE', message: 'down' } } }),
    });
    expect((await run(args, down.fetch, JSON.stringify(draft))).code).toBe(EXIT.UNAVAILABLE);
  });
});
