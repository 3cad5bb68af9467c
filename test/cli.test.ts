import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createKafka, RecordProducer } from '@baton/kafka';
import { buildHandoff, type HandoffDraft } from '@baton/protocol';
import {
  GATEWAY_TOKENS as TOKENS,
  PROBE_AGENT as PROBE,
  createTestTopic,
  runBaton,
  startGatewayRig,
  uniqueName,
  waitFor,
  type CliRun,
  type GatewayRig,
} from './helpers/index.js';

let setup: GatewayRig;
/** Every output of the command, checked at the end for tokens. */
const outputs: string[] = [];

/** `baton ARGS` against the rig's gateway with `token` (none when null). */
async function baton(
  args: string[],
  options: { token?: string | null; input?: string; env?: Record<string, string | undefined> } = {},
): Promise<CliRun> {
  const token = options.token === undefined ? TOKENS.viewer : options.token;
  const run = await runBaton(args, {
    input: options.input,
    env: {
      BATON_GATEWAY_URL: setup.gateway.address,
      BATON_TOKEN: token ?? undefined,
      KAFKA_BROKERS: inject('kafkaBrokers').join(','),
      SCHEMA_REGISTRY_URL: inject('schemaRegistryUrl'),
      ...options.env,
    },
  });
  outputs.push(run.stdout, run.stderr);
  return run;
}

function writeJson(name: string, value: unknown): string {
  const file = join(setup.workDir, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  setup = await startGatewayRig('cli');
});

afterAll(async () => {
  const codes = await setup?.stop();
  expect(codes?.gateway).toBe(0);
});

describe('baton publish, task, agents', () => {
  it('publishes a handoff from a file and shows its timeline as a table', async () => {
    const taskId = uniqueName('task');
    const file = writeJson('handoff.json', setup.probeHandoff(taskId, { seq: 1 }));
    const published = await baton(['publish', file], { token: TOKENS.publisher });
    expect(published).toMatchObject({ code: 0, stderr: '' });
    const messageId = /^message_id +([0-9a-f-]{36})$/m.exec(published.stdout)?.[1];
    expect(messageId).toBeDefined();
    expect(published.stdout).toMatch(new RegExp(`^task_id +${taskId}$`, 'm'));
    expect(published.stdout).toMatch(new RegExp(`^topic +${setup.rig.topics.inbound.replace(/\./g, '\\.')}$`, 'm'));

    const shown = await waitFor(
      async () => {
        const run = await baton(['task', taskId]);
        return run.code === 0 && run.stdout.includes('COMPLETED') ? run : undefined;
      },
      { description: 'the timeline to show routing and completion', timeoutMs: 30_000, intervalMs: 250 },
    );
    const lines = shown.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`task ${taskId}: FINISH, 2 events`);
    expect(lines[1]).toMatch(/^TIME +AGENT +STEP +TYPE +ROUTE +TARGET +MESSAGE_ID +DETAIL$/);
    expect(lines[2]).toMatch(
      new RegExp(`router +ROUTED +STATUS_UPDATE +ops_console -> ${PROBE} +${PROBE} +${messageId}`),
    );
    expect(lines[3]).toMatch(new RegExp(`${PROBE} +COMPLETED +STATUS_UPDATE .*${messageId}`));
    expect(setup.observed(taskId)).toEqual([1]);

    const json = await baton(['task', taskId, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      task_id: taskId,
      events: [{ outcome: 'ROUTED' }, { outcome: 'COMPLETED' }],
    });
  });

  it('follows a task as it runs: --follow prints each step and the reply as they happen', async () => {
    const taskId = uniqueName('follow');
    // Started before the task has an event: it is followed from its first.
    const following = baton(['task', taskId, '--follow', '--max', '3', '--json']);
    const published = await baton(['publish', '-'], {
      token: TOKENS.publisher,
      input: JSON.stringify(setup.probeHandoff(taskId, { seq: 21, reply: 'Done.' })),
    });
    expect(published.code).toBe(0);
    const run = await following;
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(`following task ${taskId} (Ctrl-C to stop)\n`);
    const events = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; event: string; data: { outcome?: string; message?: string } });
    expect(events.map((event) => event.data.outcome ?? `reply: ${event.data.message}`).sort()).toEqual([
      'COMPLETED',
      'ROUTED',
      'reply: Done.',
    ]);
    expect(events.at(-1)?.id).toMatch(/^\d+\.\d+$/);
  });

  it('publishes from standard input, with - and with no operand, and prints the raw answer with --json', async () => {
    const first = uniqueName('task');
    const dash = await baton(['publish', '-', '--json'], {
      token: TOKENS.publisher,
      input: JSON.stringify(setup.probeHandoff(first, { seq: 2 })),
    });
    expect(dash.code).toBe(0);
    const answer = JSON.parse(dash.stdout);
    expect(answer).toMatchObject({ task_id: first, topic: setup.rig.topics.inbound, offset: expect.any(String) });
    expect(answer.message_id).toMatch(/^[0-9a-f-]{36}$/);

    const second = uniqueName('task');
    const bare = await baton(['publish'], {
      token: TOKENS.publisher,
      input: JSON.stringify(setup.probeHandoff(second, { seq: 3 })),
    });
    expect(bare.code).toBe(0);
    await waitFor(() => setup.observed(first).length === 1 && setup.observed(second).length === 1, {
      description: 'both handoffs to be processed',
      timeoutMs: 30_000,
    });
    expect([setup.observed(first), setup.observed(second)]).toEqual([[2], [3]]);
  });

  it('refuses an invalid handoff locally: exit 1, every issue with its path, nothing sent', async () => {
    const invalid = JSON.parse(readFileSync('schemas/fixtures/seed-000-escalation-invalid.json', 'utf8'));
    const taskId = uniqueName('task');
    invalid.metadata.task_id = taskId;
    const file = writeJson('invalid.json', invalid);
    const requestsBefore = setup.gateway.logs.filter((line) => line.event === 'http.request').length;
    const run = await baton(['publish', file], { token: TOKENS.publisher });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`error VALIDATION_FAILED: ${file}: invalid handoff, 1 issue; nothing published`);
    expect(lines[1]).toMatch(/^ {2}FIELD_REQUIRED \/payload\/data\/customer_info\/name: /);
    // Nothing reached the gateway, and there is no such task.
    expect(setup.gateway.logs.filter((line) => line.event === 'http.request').length).toBe(requestsBefore);
    const missing = await baton(['task', taskId]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`error TASK_NOT_FOUND at /task_id: no event of task "${taskId}"\n`);
  });

  it('prints the overview the gateway answers: attention, agents, dead letters, outcomes', async () => {
    const run = await baton(['overview']);
    expect(run.code).toBe(0);
    const json = JSON.parse((await baton(['overview', '--json'])).stdout);
    expect(Object.keys(json).sort()).toEqual(['agents', 'attention', 'dead_letters', 'generated_at', 'outcomes']);
    expect(run.stdout).toMatch(/^attention: none\n|^attention:\n/);
    expect(run.stdout).toContain(`\n${PROBE} `);
    expect(run.stdout).toContain(`dead letters: ${json.dead_letters.total} (`);
    expect(run.stdout).toContain(`outcomes per minute, last ${json.outcomes.window_minutes} minutes (UTC):\n`);
  });

  it('lists the agents and the router, up, with their instances', async () => {
    const run = await baton(['agents']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^AGENT +STATUS +STATE +LIVE +LAG +INSTANCES +INSTANCE \(HOST\) +GROUP$/);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^router +up +\w+ +- +\d+ +1 +cli-router \(/),
        expect.stringMatching(
          new RegExp(
            `^${PROBE} +up +\\w+ +yes +\\d+ +1 +cli-probe \\(.*${setup.rig.topics.prefix}\\.agent\\.${PROBE}$`,
          ),
        ),
      ]),
    );
    const json = JSON.parse((await baton(['agents', '--json'])).stdout);
    expect(json.agents).toContainEqual(
      expect.objectContaining({
        agent_id: PROBE,
        up: true,
        instances: [expect.objectContaining({ instance_id: 'cli-probe' })],
      }),
    );
  });
});

describe('baton tail', () => {
  it('prints the events topic decoded, from the beginning, up to --max', async () => {
    const json = await baton(['tail', setup.rig.topics.events, '--from-beginning', '--max', '2', '--json']);
    expect(json.code).toBe(0);
    const records = json.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records).toHaveLength(2);
    for (const record of records) {
      expect(record).toMatchObject({
        topic: setup.rig.topics.events,
        kind: 'outcome',
        value: { agent_id: expect.any(String), outcome: expect.any(String), task_id: record.key },
      });
    }
    const human = await baton(['tail', setup.rig.topics.events, '--from-beginning', '--max', '1']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(
      new RegExp(
        `^\\S+Z  ${setup.rig.topics.events.replace(/\./g, '\\.')}/\\d+@\\d+  key=\\S+  outcome \\w+: \\w+ STATUS_UPDATE`,
      ),
    );
    expect(human.stderr).toContain('tailing');
  });

  it('without --from-beginning prints only records that arrive after it started', async () => {
    const published: string[] = [];
    let settled = false;
    const tailing = baton(['tail', setup.rig.topics.inbound, '--max', '1', '--json']).finally(() => (settled = true));
    await waitFor(
      async () => {
        if (settled) return true;
        const taskId = uniqueName('tail');
        published.push(taskId);
        await setup.api('POST', '/v1/handoffs', {
          token: TOKENS.publisher,
          body: setup.probeHandoff(taskId, { seq: 5 }),
        });
        return false;
      },
      { description: 'the tail to print a new record', timeoutMs: 45_000, intervalMs: 1_000 },
    );
    const run = await tailing;
    expect(run.code).toBe(0);
    const record = JSON.parse(run.stdout);
    expect(record).toMatchObject({ kind: 'handoff', value: { payload: { handoff_type: 'STATUS_UPDATE' } } });
    expect(published).toContain(record.key);
  });

  it('shows JSON records as JSON, undecodable bytes with their error code, and tombstones', async () => {
    const brokers = inject('kafkaBrokers');
    const topic = await createTestTopic(brokers, 'cli-tail');
    const producer = new RecordProducer(createKafka({ brokers, clientId: uniqueName('cli-tail') }));
    const handoff = buildHandoff(setup.probeHandoff('t-avro', { seq: 0 }) as unknown as HandoffDraft);
    await producer.send([
      { topic, key: 't-avro', value: setup.rig.codec.encode(handoff) },
      {
        topic,
        key: 't-json',
        value: JSON.stringify({ effect: 'observed' }),
        headers: { 'content-type': 'application/json' },
      },
      { topic, key: 't-bad', value: Buffer.from('certainly not avro') },
      { topic, key: 't-gone', value: null },
    ]);
    await producer.disconnect();
    const run = await baton(['tail', topic, '--from-beginning', '--max', '4', '--json']);
    expect(run.code).toBe(0);
    const records = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records.map((record) => [record.key, record.kind])).toEqual([
      ['t-avro', 'handoff'],
      ['t-json', 'json'],
      ['t-bad', 'undecodable'],
      ['t-gone', 'tombstone'],
    ]);
    expect(records[0].value.metadata.message_id).toBe(handoff.metadata.message_id);
    expect(records[1].value).toEqual({ effect: 'observed' });
    expect(records[2]).toMatchObject({
      error: { code: 'WIRE_FORMAT_INVALID' },
      value_base64: Buffer.from('certainly not avro').toString('base64'),
    });

    const human = await baton(['tail', topic, '--from-beginning', '--max', '4']);
    expect(human.stdout).toContain(`key=t-avro  handoff STATUS_UPDATE ops_console -> ${PROBE} message_id=`);
    expect(human.stdout).toContain('key=t-json  json {"effect":"observed"}');
    expect(human.stdout).toContain('key=t-bad  undecodable WIRE_FORMAT_INVALID: ');
    expect(human.stdout).toContain('key=t-gone  tombstone');
  });

  it('follows a topic until SIGINT, then stops cleanly with exit 0', async () => {
    const child = spawn(process.execPath, ['libs/cli/bin/baton.js', 'tail', setup.rig.topics.events], {
      env: {
        ...process.env,
        KAFKA_BROKERS: inject('kafkaBrokers').join(','),
        SCHEMA_REGISTRY_URL: inject('schemaRegistryUrl'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = once(child, 'exit');
    await waitFor(() => stderr.includes(`tailing ${setup.rig.topics.events} from now on (Ctrl-C to stop)`), {
      description: 'the tail to start',
      timeoutMs: 30_000,
    });
    child.kill('SIGINT');
    const [code] = await exited;
    expect(code).toBe(0);
  });

  it('refuses a topic that does not exist with exit 2', async () => {
    const run = await baton(['tail', uniqueName('no-such-topic'), '--max', '1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error TOPIC_NOT_FOUND at \/topic: no topic "no-such-topic-/);
  });
});

describe('baton dlq', () => {
  const dlqTopic = () => `${setup.rig.topics.agentInbox(PROBE)}.dlq`;

  /** Publishes handoffs that fail while `outage` exists, and waits until all are dead-lettered. */
  async function deadLetter(outage: string, tasks: string[], seqBase: number): Promise<void> {
    for (const [index, taskId] of tasks.entries()) {
      const answer = await setup.api('POST', '/v1/handoffs', {
        token: TOKENS.publisher,
        body: setup.probeHandoff(taskId, { seq: seqBase + index, fail_while_exists: outage }, 0),
      });
      expect(answer.status).toBe(202);
    }
    await waitFor(
      async () => {
        const listed = await setup.api('GET', `/v1/dlq/${dlqTopic()}/messages?limit=500`, { token: TOKENS.viewer });
        const ids = new Set(listed.body?.messages?.map((message: { task_id: string }) => message.task_id) ?? []);
        return tasks.every((taskId) => ids.has(taskId));
      },
      { description: 'the handoffs to be dead-lettered', timeoutMs: 30_000 },
    );
  }

  it('lists topics, filters messages, shows one and replays it', async () => {
    const outage = join(setup.workDir, 'outage-single');
    writeFileSync(outage, 'down');
    const taskId = uniqueName('task');
    await deadLetter(outage, [taskId], 100);

    const list = await baton(['dlq', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(/^TOPIC +SOURCE +COUNT$/);
    expect(list.stdout).toMatch(
      new RegExp(
        `^${dlqTopic().replace(/\./g, '\\.')} +${setup.rig.topics.agentInbox(PROBE).replace(/\./g, '\\.')} +\\d+$`,
        'm',
      ),
    );

    const filters = [
      '--error-code',
      'RETRIES_EXHAUSTED',
      '--task-id',
      taskId,
      '--handoff-type',
      'STATUS_UPDATE',
      '--header',
      'ce_source=ops_console',
      '--header',
      `ce_subject=${taskId}`,
      '--from',
      '2020-01-01T00:00:00Z',
    ];
    const listed = await baton(['dlq', 'messages', dlqTopic(), ...filters, '--json']);
    expect(listed.code).toBe(0);
    const page = JSON.parse(listed.stdout);
    expect(page.total).toBe(1);
    const [summary] = page.messages;
    expect(summary).toMatchObject({ task_id: taskId, error_code: 'RETRIES_EXHAUSTED', replay_count: 0 });

    const table = await baton(['dlq', 'messages', dlqTopic(), ...filters]);
    const rows = table.stdout.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^ID +DEAD-LETTERED +TASK +TYPE +ERROR +ATTEMPTS +REPLAYS +MESSAGE$/);
    expect(rows[1]).toMatch(new RegExp(`^${summary.id} +\\S+ +${taskId} +STATUS_UPDATE +RETRIES_EXHAUSTED +1 +0 `));
    expect(rows[2]).toBe('1 of 1');

    const none = await baton(['dlq', 'messages', dlqTopic(), '--task-id', taskId, '--error-code', 'NO_ROUTE']);
    expect(none).toMatchObject({ code: 0, stdout: `no dead letters in ${dlqTopic()} match (total 0)\n` });
    const badHeader = await baton(['dlq', 'messages', dlqTopic(), '--header', 'novalue']);
    expect(badHeader).toMatchObject({ code: 1, stderr: 'error USAGE: --header must be name=value, not "novalue"\n' });

    const shown = await baton(['dlq', 'show', dlqTopic(), summary.id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^task_id +${taskId}$`, 'm'));
    expect(shown.stdout).toMatch(/^error +RETRIES_EXHAUSTED: /m);
    expect(shown.stdout).toMatch(/^ {2}baton\.dlq\.error\.code +RETRIES_EXHAUSTED$/m);
    expect(shown.stdout).toContain(`"task_id": "${taskId}"`);
    const shownJson = JSON.parse((await baton(['dlq', 'show', dlqTopic(), summary.id, '--json'])).stdout);
    expect(shownJson).toMatchObject({ id: summary.id, body: { metadata: { task_id: taskId } } });

    const noReason = await baton(['dlq', 'replay', dlqTopic(), summary.id], { token: TOKENS.operator });
    expect(noReason.code).toBe(1);
    const asViewer = await baton(['dlq', 'replay', dlqTopic(), summary.id, '--reason', 'x']);
    expect(asViewer.code).toBe(2);
    expect(asViewer.stderr).toMatch(/^error FORBIDDEN: .*operator/);

    rmSync(outage);
    const replayed = await baton(['dlq', 'replay', dlqTopic(), summary.id, '--reason', 'downstream fixed'], {
      token: TOKENS.operator,
    });
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toContain(`replayed ${dlqTopic()} ${summary.id}`);
    expect(replayed.stdout).toMatch(
      new RegExp(`^target_topic +${setup.rig.topics.agentInbox(PROBE).replace(/\./g, '\\.')}$`, 'm'),
    );
    expect(replayed.stdout).toMatch(new RegExp(`^message_id +${summary.message_id}$`, 'm'));
    await waitFor(() => setup.observed(taskId).length === 1, {
      description: 'the replay to be processed',
      timeoutMs: 30_000,
    });
    await waitFor(
      async () =>
        JSON.parse((await baton(['dlq', 'show', dlqTopic(), summary.id, '--json'])).stdout).replay_count === 1,
      { description: 'the replay in the audit trail' },
    );
  });

  it('plans a bulk replay as a dry run (nothing replayed), then runs it rate-limited to completion', async () => {
    const outage = join(setup.workDir, 'outage-bulk');
    writeFileSync(outage, 'down');
    const since = new Date().toISOString();
    const batch = uniqueName('batch');
    const tasks = [1, 2, 3].map((n) => `${batch}-${n}`);
    await deadLetter(outage, tasks, 200);
    rmSync(outage);
    const bulk = ['dlq', 'replay', dlqTopic(), '--from', since, '--error-code', 'RETRIES_EXHAUSTED'];

    const dry = await baton([...bulk, '--reason', 'look first', '--dry-run'], { token: TOKENS.operator });
    expect(dry.code).toBe(0);
    const jobId = /^replay job (\S+): 3 dead letters of /m.exec(dry.stdout)?.[1];
    expect(jobId).toBeDefined();
    expect(dry.stdout).toMatch(new RegExp(`^${setup.rig.topics.agentInbox(PROBE).replace(/\./g, '\\.')} +3$`, 'm'));
    for (const taskId of tasks)
      expect(dry.stdout).toMatch(new RegExp(`^\\d+-\\d+ +${taskId} +[0-9a-f-]{36} +\\S+$`, 'm'));
    expect(dry.stdout.trimEnd().endsWith('dry run: nothing replayed')).toBe(true);
    const jobs = await setup.api('GET', '/v1/replays', { token: TOKENS.viewer });
    expect(jobs.body.jobs.find((job: { job_id: string }) => job.job_id === jobId)).toMatchObject({
      state: 'stopped',
      progress: { replayed: 0 },
    });
    expect(tasks.map((taskId) => setup.observed(taskId))).toEqual([[], [], []]);

    const run = await baton([...bulk, '--reason', 'bulk after outage', '--rate', '5', '--json'], {
      token: TOKENS.operator,
    });
    expect(run.code).toBe(0);
    const done = JSON.parse(run.stdout);
    expect(done).toMatchObject({
      state: 'completed',
      rate_per_second: 5,
      progress: { total: 3, replayed: 3, refused: 0, failed: 0, remaining: 0 },
    });
    expect(run.stderr).toContain(`replay ${done.job_id} completed: 3/3 replayed, 0 refused, 0 failed, 0 remaining`);
    await waitFor(() => tasks.every((taskId) => setup.observed(taskId).length === 1), {
      description: 'every replayed task to be observed',
      timeoutMs: 30_000,
    });
  });

  it('exits 2 for an unknown topic, naming the code and path', async () => {
    const run = await baton(['dlq', 'messages', 'no.such.topic.dlq']);
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error DEAD_LETTER_NOT_FOUND at /topic: no dead-letter topic "no.such.topic.dlq"\n',
    });
  });
});

// After the tails: they read the events topic from the beginning and expect outcome events only.
describe('baton negotiate', () => {
  it('opens a negotiated handoff from a file, prints the 202 answer, and the task shows the negotiation', async () => {
    const taskId = uniqueName('task');
    const file = writeJson('negotiated.json', setup.probeHandoff(taskId, { seq: 9 }));
    const run = await baton(['negotiate', file, '--desired-agent-type', PROBE, '--reason', 'needs a probe'], {
      token: TOKENS.publisher,
    });
    expect(run).toMatchObject({ code: 0, stderr: `follow it with: baton task ${taskId}\n` });
    const negotiationId = /^negotiation_id +([0-9a-f-]{36})$/m.exec(run.stdout)?.[1];
    expect(run.stdout).toMatch(new RegExp(`^receiver +${PROBE}$`, 'm'));
    expect(run.stdout).toMatch(/^context +by-value$/m);
    // No tracker runs here, so the negotiation stays open; its opening records are what the CLI caused.
    const task = await waitFor(
      async () => {
        const shown = await baton(['task', taskId, '--json']);
        return shown.code === 0 ? JSON.parse(shown.stdout) : undefined;
      },
      { description: 'the negotiation in the task view', timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(task.negotiations).toMatchObject([{ negotiation_id: negotiationId, sender_id: 'ops_console' }]);
  });
});

describe('baton errors', () => {
  it('exits 2 with UNAUTHENTICATED without a token, or with an unknown one, and never prints it', async () => {
    const none = await baton(['dlq', 'list'], { token: null });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^error UNAUTHENTICATED: .*BATON_TOKEN/);
    const unknown = await baton(['dlq', 'list', '--token', 'a-token-nobody-knows']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('error UNAUTHENTICATED: the credential is not known\n');
    expect(unknown.stdout + unknown.stderr).not.toContain('a-token-nobody-knows');
  });

  it('exits 3 when the gateway cannot be reached, and 1 for usage mistakes', async () => {
    const port = await freePort();
    const down = await baton(['agents', '--gateway', `http://127.0.0.1:${port}`]);
    expect(down.code).toBe(3);
    expect(down.stderr).toMatch(
      new RegExp(
        `^error GATEWAY_UNAVAILABLE: cannot reach the gateway at http://127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`,
      ),
    );
    const unknown = await baton(['frobnicate']);
    expect(unknown).toMatchObject({ code: 1, stderr: 'error USAGE: unknown command "frobnicate"; see baton help\n' });
    const help = await baton(['help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('dlq replay');
  });

  it('never printed a token', () => {
    for (const token of Object.values(TOKENS)) for (const output of outputs) expect(output).not.toContain(token);
  });
});
