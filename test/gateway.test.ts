import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GATEWAY_TOKENS as TOKENS,
  PROBE_AGENT as PROBE,
  startGatewayRig,
  uniqueName,
  waitFor,
  type GatewayRig,
} from './helpers/index.js';

let setup: GatewayRig;
const api: GatewayRig['api'] = (...args) => setup.api(...args);
const observed: GatewayRig['observed'] = (taskId) => setup.observed(taskId);
const probeHandoff: GatewayRig['probeHandoff'] = (...args) => setup.probeHandoff(...args);

async function timeline(taskId: string): Promise<{ agent_id: string; outcome: string }[]> {
  const answer = await api('GET', `/v1/tasks/${taskId}`, { token: TOKENS.viewer });
  return answer.status === 200 ? answer.body.events : [];
}

beforeAll(async () => {
  setup = await startGatewayRig('gateway');
});

afterAll(async () => {
  const codes = await setup?.stop();
  expect(codes?.gateway).toBe(0);
});

describe('gateway: publishing and timelines', () => {
  it('publishes a handoff over HTTP, filling what the builders fill, and shows its timeline in order', async () => {
    const taskId = uniqueName('task');
    const accepted = await api('POST', '/v1/handoffs', {
      token: TOKENS.publisher,
      body: probeHandoff(taskId, { seq: 1 }),
    });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ task_id: taskId, topic: setup.rig.topics.inbound });
    expect(accepted.body.message_id).toMatch(/^[0-9a-f-]{36}$/);

    await waitFor(async () => (await timeline(taskId)).length === 2, {
      description: 'the timeline to show routing and completion',
      timeoutMs: 30_000,
    });
    const task = (await api('GET', `/v1/tasks/${taskId}`, { token: TOKENS.viewer })).body;
    // The tracker's fold: the task's status and who holds the task (nobody, once completed).
    expect(task).toMatchObject({ task_id: taskId, status: 'FINISH', owner: null, parent_task_ids: [], children: [] });
    const events = task.events;
    expect(events).toEqual([
      expect.objectContaining({
        agent_id: 'router',
        outcome: 'ROUTED',
        handoff_type: 'STATUS_UPDATE',
        sender: 'ops_console',
        receiver: PROBE,
        target: PROBE,
        message_id: accepted.body.message_id,
      }),
      expect.objectContaining({ agent_id: PROBE, outcome: 'COMPLETED', message_id: accepted.body.message_id }),
    ]);
    expect(Date.parse(events[0].time)).toBeLessThanOrEqual(Date.parse(events[1].time));
    expect(observed(taskId)).toEqual([1]);
  });

  it('takes the same message_id twice and processes it once', async () => {
    const taskId = uniqueName('task');
    const message = probeHandoff(taskId, { seq: 7 });
    (message.metadata as Record<string, unknown>).message_id = randomUUID();
    const first = await api('POST', '/v1/handoffs', { token: TOKENS.publisher, body: message });
    const second = await api('POST', '/v1/handoffs', { token: TOKENS.publisher, body: message });
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(second.body.message_id).toBe(first.body.message_id);
    // The router logs a duplicate; the agent observes the message once.
    await waitFor(async () => (await timeline(taskId)).some((event) => event.outcome === 'COMPLETED'), {
      description: 'the task to complete',
      timeoutMs: 30_000,
    });
    const marker = probeHandoff(taskId, { seq: 8 });
    await api('POST', '/v1/handoffs', { token: TOKENS.publisher, body: marker });
    await waitFor(() => observed(taskId).includes(8), { description: 'the marker to be observed', timeoutMs: 30_000 });
    expect(observed(taskId)).toEqual([7, 8]);
  });

  it("answers 400 with every issue's code and path for the invalid reference example", async () => {
    const invalid = JSON.parse(readFileSync('schemas/fixtures/seed-000-escalation-invalid.json', 'utf8'));
    const answer = await api('POST', '/v1/handoffs', { token: TOKENS.publisher, body: invalid });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('VALIDATION_FAILED');
    expect(answer.body.error.issues).toContainEqual({
      code: 'FIELD_REQUIRED',
      path: '/payload/data/customer_info/name',
      message: expect.any(String),
    });
  });

  it('answers 400 naming each missing field of a near-empty body', async () => {
    const answer = await api('POST', '/v1/handoffs', {
      token: TOKENS.publisher,
      body: { payload: { handoff_type: 'STATUS_UPDATE', data: {} } },
    });
    expect(answer.status).toBe(400);
    const paths = answer.body.error.issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining(['/metadata/sender_id', '/metadata/recipient_id', '/metadata/task_id']),
    );
  });

  it('lists the agents and the router with their instances', async () => {
    const answer = await api('GET', '/v1/agents', { token: TOKENS.viewer });
    expect(answer.status).toBe(200);
    const byId = Object.fromEntries(answer.body.agents.map((agent: { agent_id: string }) => [agent.agent_id, agent]));
    expect(byId.router).toMatchObject({ up: true, instances: [{ instance_id: 'gateway-router' }] });
    // How much waits in what each consumes: the inbound topic, the inbox (transaction markers count).
    expect([typeof byId.router.lag, typeof byId[PROBE].lag]).toEqual(['number', 'number']);
    expect(byId[PROBE]).toMatchObject({
      up: true,
      group_id: `${setup.rig.topics.prefix}.agent.${PROBE}`,
      instances: [{ instance_id: 'gateway-probe' }],
    });
  });
});

describe('gateway: negotiated handoffs', () => {
  /** A timeline as `kind` and who: easy to compare whole. */
  function steps(task: { events: Record<string, string>[] }): string[] {
    return task.events.map((step) => {
      if (step.kind === 'outcome') return `${step.outcome} @${step.agent_id}`;
      if (step.kind === 'staged') return `staged ${step.context_mode} @${step.sender}`;
      return `${step.message_type} ${step.sender}>${step.receiver}`;
    });
  }

  it('opens negotiations over HTTP that the probe agent accepts; the tracker sends the context, by value or by reference, and the probe runs it', async () => {
    // The tracker runs the sender's side: without it no context is ever sent.
    await setup.rig.addProcess('tracker', 'services/tracker/src/main.ts');
    const byValue = uniqueName('negotiated');
    const byReference = uniqueName('negotiated');
    const ask = (handoff: Record<string, unknown>) => ({
      handoff,
      // The probe takes work for its own id, matched case-insensitively.
      desired_agent_type: 'Probe_Agent',
      reason: 'needs a probe',
    });
    const opened = await api('POST', '/v1/negotiations', {
      token: TOKENS.publisher,
      body: ask(probeHandoff(byValue, { seq: 41 })),
    });
    // Over the gateway's inline limit (256 KiB): the context is stored and sent by reference.
    const large = await api('POST', '/v1/negotiations', {
      token: TOKENS.publisher,
      body: ask(probeHandoff(byReference, { seq: 42, pad: 'x'.repeat(300_000) })),
    });
    expect([opened.status, large.status]).toEqual([202, 202]);
    expect(opened.body).toEqual({
      negotiation_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      task_id: byValue,
      receiver: PROBE,
      context_mode: 'by-value',
    });
    expect(large.body).toMatchObject({ task_id: byReference, context_mode: 'by-reference' });

    const finished = async (taskId: string) => {
      let task: any;
      await waitFor(
        async () => {
          task = (await api('GET', `/v1/tasks/${taskId}`, { token: TOKENS.viewer })).body;
          return task?.status === 'FINISH';
        },
        { description: `${taskId} FINISH (last: ${JSON.stringify(task?.events)})`, timeoutMs: 60_000 },
      );
      return task;
    };
    const task = await finished(byValue);
    expect(steps(task)).toEqual([
      'staged by-value @ops_console',
      `HandoffRequest ops_console>${PROBE}`,
      `HandoffAccept ${PROBE}>ops_console`,
      `TaskContextTransfer ops_console>${PROBE}`,
      `HandoffComplete ${PROBE}>ops_console`,
      `COMPLETED @${PROBE}`,
    ]);
    expect(task.negotiations).toMatchObject([
      {
        negotiation_id: opened.body.negotiation_id,
        sender_id: 'ops_console',
        terms: { desired_agent_type: 'Probe_Agent', reason: 'needs a probe' },
        context_mode: 'by-value',
        outcome: 'COMPLETED',
        attempts: [{ receiver: PROBE, via: 'target', receiver_state: 'Active' }],
      },
    ]);
    expect(observed(byValue)).toEqual([41]);

    const largeTask = await finished(byReference);
    expect(largeTask.negotiations).toMatchObject([{ context_mode: 'by-reference', outcome: 'COMPLETED' }]);
    expect(observed(byReference)).toEqual([42]);
  }, 120_000);
});

describe('gateway: access', () => {
  it('refuses a request without a credential, or with an unknown one', async () => {
    const none = await api('GET', '/v1/dlq');
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('UNAUTHENTICATED');
    const unknown = await api('GET', '/v1/dlq', { token: 'not-a-token' });
    expect(unknown.status).toBe(401);
  });

  it('needs the publisher role to publish and the operator role to replay', async () => {
    const publish = await api('POST', '/v1/handoffs', { token: TOKENS.viewer, body: probeHandoff('x', { seq: 0 }) });
    expect(publish.status).toBe(403);
    expect(publish.body.error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('publisher') });
    const replay = await api('POST', `/v1/dlq/${setup.rig.topics.inbound}.dlq/messages/0-0/replay`, {
      token: TOKENS.publisher,
      body: { reason: 'trying' },
    });
    expect(replay.status).toBe(403);
    expect(replay.body.error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('operator') });
  });

  it('serves its page, open to all, that may load nothing but its own files', async () => {
    const bare = await fetch(`${setup.gateway.address}/ui`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/ui/']);
    const page = await fetch(`${setup.gateway.address}/ui/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await page.text()).toContain('<html');
  });

  it('serves an OpenAPI document of every route, and never logs a token', async () => {
    const document = await api('GET', '/openapi.json');
    expect(document.status).toBe(200);
    expect(Object.keys(document.body.paths)).toEqual(
      expect.arrayContaining([
        '/v1/handoffs',
        '/v1/negotiations',
        '/v1/tasks/{task_id}',
        '/v1/agents',
        '/v1/dlq',
        '/v1/dlq/{topic}/messages',
        '/v1/dlq/{topic}/messages/{id}',
        '/v1/dlq/{topic}/messages/{id}/replay',
        '/v1/replays',
        '/v1/replays/{job_id}',
        '/v1/replays/{job_id}/{command}',
        '/v1/audit',
      ]),
    );
    const logged = JSON.stringify(setup.gateway.logs);
    for (const token of Object.values(TOKENS)) expect(logged).not.toContain(token);
    expect(setup.gateway.logs.some((line) => line.event === 'http.request' && line.principal === 'pub')).toBe(true);
  });
});

describe('gateway: dead letters', () => {
  const dlqTopic = () => `${setup.rig.topics.agentInbox(PROBE)}.dlq`;

  /** Publishes handoffs that fail while `outage` exists, and waits until all are dead-lettered. */
  async function deadLetter(outage: string, tasks: string[], seqBase: number): Promise<void> {
    for (const [index, taskId] of tasks.entries()) {
      const answer = await api('POST', '/v1/handoffs', {
        token: TOKENS.publisher,
        body: probeHandoff(taskId, { seq: seqBase + index, fail_while_exists: outage }, 0),
      });
      expect(answer.status).toBe(202);
    }
    await waitFor(
      async () => {
        const listed = await api('GET', `/v1/dlq/${dlqTopic()}/messages?limit=500`, { token: TOKENS.viewer });
        const ids = new Set(listed.body?.messages?.map((message: { task_id: string }) => message.task_id) ?? []);
        return tasks.every((taskId) => ids.has(taskId));
      },
      { description: 'the handoffs to be dead-lettered', timeoutMs: 30_000 },
    );
  }

  it('lists, filters, shows and replays a dead letter, which is then processed once and audited', async () => {
    const outage = join(setup.workDir, 'outage-single');
    writeFileSync(outage, 'down');
    const taskId = uniqueName('task');
    await deadLetter(outage, [taskId], 100);

    const topics = await api('GET', '/v1/dlq', { token: TOKENS.viewer });
    expect(topics.body.topics).toContainEqual({
      topic: dlqTopic(),
      source_topic: setup.rig.topics.agentInbox(PROBE),
      count: expect.any(Number),
    });

    const filtered = await api(
      'GET',
      `/v1/dlq/${dlqTopic()}/messages?error_code=RETRIES_EXHAUSTED&handoff_type=STATUS_UPDATE&task_id=${taskId}` +
        `&header=ce_source%3Dops_console&from=2020-01-01T00:00:00Z`,
      { token: TOKENS.viewer },
    );
    expect(filtered.status).toBe(200);
    expect(filtered.body.total).toBe(1);
    const [summary] = filtered.body.messages;
    expect(summary).toMatchObject({
      task_id: taskId,
      handoff_type: 'STATUS_UPDATE',
      error_code: 'RETRIES_EXHAUSTED',
      source_topic: setup.rig.topics.agentInbox(PROBE),
      replay_count: 0,
    });
    const none = await api('GET', `/v1/dlq/${dlqTopic()}/messages?task_id=${taskId}&error_code=NO_ROUTE`, {
      token: TOKENS.viewer,
    });
    expect(none.body).toEqual({ messages: [], total: 0 });

    const shown = await api('GET', `/v1/dlq/${dlqTopic()}/messages/${summary.id}`, { token: TOKENS.viewer });
    expect(shown.status).toBe(200);
    expect(shown.body.body.metadata.task_id).toBe(taskId);
    expect(shown.body.headers['baton.dlq.error.code']).toBe('RETRIES_EXHAUSTED');
    expect(shown.body.error).toMatchObject({
      code: 'RETRIES_EXHAUSTED',
      retriable: false,
      attempts: 1,
      consumer_group: `${setup.rig.topics.prefix}.agent.${PROBE}`,
      source: { topic: setup.rig.topics.agentInbox(PROBE) },
    });

    // The outage is over: the operator replays the message.
    rmSync(outage);
    const replayed = await api('POST', `/v1/dlq/${dlqTopic()}/messages/${summary.id}/replay`, {
      token: TOKENS.operator,
      body: { reason: 'downstream fixed' },
    });
    expect(replayed.status).toBe(200);
    expect(replayed.body).toMatchObject({
      dlq_topic: dlqTopic(),
      id: summary.id,
      target_topic: setup.rig.topics.agentInbox(PROBE),
      message_id: summary.message_id,
    });
    await waitFor(() => observed(taskId).length === 1, {
      description: 'the replay to be processed',
      timeoutMs: 30_000,
    });

    // A second replay keeps the message_id: the agent has processed it and skips it.
    await api('POST', `/v1/dlq/${dlqTopic()}/messages/${summary.id}/replay`, {
      token: TOKENS.operator,
      body: { reason: 'again, by mistake' },
    });
    // Only with a new message_id is it processed again.
    const renewed = await api('POST', `/v1/dlq/${dlqTopic()}/messages/${summary.id}/replay`, {
      token: TOKENS.operator,
      body: { reason: 'reprocess on purpose', new_message_id: true },
    });
    expect(renewed.body.message_id).not.toBe(summary.message_id);
    await waitFor(() => observed(taskId).length === 2, {
      description: 'the renewed replay to be processed',
      timeoutMs: 30_000,
    });
    expect(observed(taskId)).toEqual([100, 100]);

    await waitFor(
      async () => {
        const audit = await api('GET', '/v1/audit', { token: TOKENS.viewer });
        return audit.body.entries.filter((entry: { id?: string }) => entry.id === summary.id).length === 3;
      },
      { description: 'three replays in the audit trail' },
    );
    const audit = (await api('GET', '/v1/audit', { token: TOKENS.viewer })).body.entries.filter(
      (entry: { id?: string; dlq_topic: string }) => entry.id === summary.id && entry.dlq_topic === dlqTopic(),
    );
    expect(audit.map((entry: { reason: string }) => entry.reason)).toEqual([
      'reprocess on purpose',
      'again, by mistake',
      'downstream fixed',
    ]);
    expect(audit[2]).toMatchObject({
      actor: 'ops',
      action: 'replay',
      target_topic: setup.rig.topics.agentInbox(PROBE),
      message_id: summary.message_id,
      new_message_id: false,
    });
    const again = await api('GET', `/v1/dlq/${dlqTopic()}/messages/${summary.id}`, { token: TOKENS.viewer });
    expect(again.body.replay_count).toBe(3);
  });

  it('refuses a replay to a topic outside the allowed list', async () => {
    const listed = await api('GET', `/v1/dlq/${dlqTopic()}/messages?limit=1`, { token: TOKENS.viewer });
    const answer = await api('POST', `/v1/dlq/${dlqTopic()}/messages/${listed.body.messages[0].id}/replay`, {
      token: TOKENS.operator,
      body: { reason: 'elsewhere', target_topic: setup.rig.topics.ledger },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'REPLAY_TARGET_NOT_ALLOWED', path: '/target_topic' });
  });

  it('plans a bulk replay as a dry run, then runs it rate-limited, paused and resumed, with progress', async () => {
    const outage = join(setup.workDir, 'outage-bulk');
    writeFileSync(outage, 'down');
    const batch = uniqueName('batch');
    const tasks = [1, 2, 3, 4].map((n) => `${batch}-${n}`);
    await deadLetter(outage, tasks, 200);
    rmSync(outage);

    const unknown = await api('POST', '/v1/replays', {
      token: TOKENS.operator,
      body: { dlq_topic: 'no.such.dlq', reason: 'typo' },
    });
    expect([unknown.status, unknown.body.error.code, unknown.body.error.path]).toEqual([
      404,
      'DEAD_LETTER_NOT_FOUND',
      '/dlq_topic',
    ]);
    const badFilter = await api('POST', '/v1/replays', {
      token: TOKENS.operator,
      body: { dlq_topic: dlqTopic(), filter: { header: ['no-equals'] }, reason: 'typo' },
    });
    expect([badFilter.status, badFilter.body.error.code]).toEqual([400, 'REQUEST_INVALID']);
    expect(badFilter.body.error.issues).toEqual([
      { code: 'FIELD_PATTERN', path: '/body/filter/header/0', message: expect.any(String) },
    ]);

    const filter = { header: ['ce_subject=' + tasks[0]] };
    const single = await api('POST', '/v1/replays', {
      token: TOKENS.operator,
      body: { dlq_topic: dlqTopic(), filter, reason: 'one task' },
    });
    expect(single.status).toBe(201);
    expect(single.body.plan.count).toBe(1);

    const planned = await api('POST', '/v1/replays', {
      token: TOKENS.operator,
      body: {
        dlq_topic: dlqTopic(),
        filter: { from: new Date(Date.now() - 120_000).toISOString(), error_code: 'RETRIES_EXHAUSTED' },
        reason: 'bulk after outage',
        rate_per_second: 2,
      },
    });
    expect(planned.status).toBe(201);
    const job = planned.body;
    const ours = job.plan.items.filter((item: { task_id: string }) => tasks.includes(item.task_id));
    // Dead-lettered on several partitions at once: the plan holds them in the order they failed.
    expect(ours.map((item: { task_id: string }) => item.task_id).sort()).toEqual(tasks);
    expect(job).toMatchObject({ state: 'planned', progress: { replayed: 0 } });
    expect(job.plan.targets).toEqual({ [setup.rig.topics.agentInbox(PROBE)]: job.plan.count });

    const started = await api('POST', `/v1/replays/${job.job_id}/start`, { token: TOKENS.operator });
    expect(started.body.state).toBe('running');
    const paused = await api('POST', `/v1/replays/${job.job_id}/pause`, { token: TOKENS.operator });
    expect(paused.body.state).toBe('paused');
    const conflict = await api('POST', `/v1/replays/${job.job_id}/start`, { token: TOKENS.operator });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('REPLAY_STATE_CONFLICT');
    const whilePaused = (await api('GET', `/v1/replays/${job.job_id}`, { token: TOKENS.viewer })).body;
    expect(whilePaused.progress.replayed).toBeLessThan(job.plan.count);

    await api('POST', `/v1/replays/${job.job_id}/resume`, { token: TOKENS.operator });
    await waitFor(
      async () => (await api('GET', `/v1/replays/${job.job_id}`, { token: TOKENS.viewer })).body.state === 'completed',
      { description: 'the replay job to complete', timeoutMs: 60_000 },
    );
    const done = (await api('GET', `/v1/replays/${job.job_id}`, { token: TOKENS.viewer })).body;
    expect(done.progress).toEqual({
      total: job.plan.count,
      replayed: job.plan.count,
      refused: 0,
      failed: 0,
      remaining: 0,
    });
    await waitFor(() => tasks.every((taskId) => observed(taskId).length === 1), {
      description: 'every replayed task to be observed',
      timeoutMs: 30_000,
    });

    const stopped = await api('POST', `/v1/replays/${single.body.job_id}/stop`, { token: TOKENS.operator });
    expect(stopped.body.state).toBe('stopped');
    const jobActions = async (): Promise<string[]> =>
      (await api('GET', '/v1/audit?limit=1000', { token: TOKENS.viewer })).body.entries
        .filter(
          (entry: { job_id?: string; action: string }) => entry.job_id === job.job_id && entry.action !== 'replay',
        )
        .map((entry: { action: string }) => entry.action);
    await waitFor(async () => (await jobActions()).length === 4, { description: "the job's four audit entries" });
    expect(await jobActions()).toEqual([
      'replay_job.complete',
      'replay_job.resume',
      'replay_job.pause',
      'replay_job.start',
    ]);
  });
});
