import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GATEWAY_TOKENS as TOKENS,
  PROBE_AGENT as PROBE,
  startGatewayRig,
  uniqueName,
  waitFor,
  type GatewayRig,
} from './helpers/index.js';

/**
 * Baton operated from an assistant: the gateway's MCP endpoint and `baton mcp`, driven by the MCP
 * SDK's own client against a real gateway, router and agent. Each tool answers what its API route
 * answers the credential, refusals included.
 */

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const TOOLS = [
  'find_tasks',
  'list_dead_letters',
  'overview',
  'publish_handoff',
  'read_task',
  'replay_dead_letter',
  'show_dead_letter',
];

let setup: GatewayRig;
const clients: Client[] = [];

async function overHttp(token: string | undefined): Promise<Client> {
  const client = new Client({ name: 'baton-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${setup.gateway.address}/mcp`), {
    requestInit: { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function overStdio(token: string): Promise<Client> {
  const client = new Client({ name: 'baton-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['libs/cli/bin/baton.js', 'mcp'],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), BATON_GATEWAY_URL: setup.gateway.address, BATON_TOKEN: token },
    stderr: 'pipe',
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** A tool's answer: its structured content, or the refusal's code. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const structured = result.structuredContent as Record<string, any>;
  return result.isError === true
    ? { refused: structured.error.code as string, text: (result.content[0] as { text: string }).text }
    : { answer: structured, text: (result.content[0] as { text: string }).text };
}

beforeAll(async () => {
  setup = await startGatewayRig('operator-mcp');
});

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  // Refusals are answers, not failures: the gateway logged no error serving them.
  expect(setup?.gateway.logs.filter((line) => line.level === 'error' || line.level === 'fatal')).toEqual([]);
  const codes = await setup?.stop();
  expect(codes?.gateway).toBe(0);
});

describe('the operator MCP server', () => {
  it('over Streamable HTTP: lists its tools, finds a task and reads its story, with a viewer credential', async () => {
    const taskId = uniqueName('mcp-task');
    const published = await setup.api('POST', '/v1/handoffs', {
      token: TOKENS.publisher,
      body: setup.probeHandoff(taskId, { seq: 1 }),
    });
    expect(published.status).toBe(202);
    await waitFor(
      async () => (await setup.api('GET', `/v1/tasks/${taskId}`, { token: TOKENS.viewer })).body?.status === 'FINISH',
      { description: 'the task to finish' },
    );

    const viewer = await overHttp(TOKENS.viewer);
    expect((await viewer.listTools()).tools.map((tool) => tool.name).sort()).toEqual(TOOLS);

    const found = await call(viewer, 'find_tasks', { q: taskId });
    expect(found.answer).toMatchObject({ total: 1, tasks: [{ task_id: taskId, status: 'FINISH', owner: null }] });
    // The API's answer, as it is: the tool adds nothing and leaves nothing out.
    const api = (await setup.api('GET', `/v1/tasks?q=${taskId}`, { token: TOKENS.viewer })).body;
    expect(found.answer).toEqual(api);

    const story = await call(viewer, 'read_task', { task_id: taskId });
    expect(story.answer?.events.map((step: any) => `${step.agent_id} ${step.outcome}`)).toEqual([
      'router ROUTED',
      `${PROBE} COMPLETED`,
    ]);
    const overview = await call(viewer, 'overview');
    expect(Array.isArray(overview.answer?.attention)).toBe(true);
    expect(await call(viewer, 'read_task', { task_id: 'no-such-task' })).toMatchObject({
      refused: 'TASK_NOT_FOUND',
      text: 'TASK_NOT_FOUND: no event of task "no-such-task" (at /task_id)',
    });
  }, 60_000);

  it('refuses what the credential may not do, with the API’s code, and a request with none', async () => {
    const viewer = await overHttp(TOKENS.viewer);
    expect(
      await call(viewer, 'replay_dead_letter', { topic: 'any.dlq', id: '0-0', reason: 'trying as a viewer' }),
    ).toMatchObject({ refused: 'FORBIDDEN' });
    expect(
      await call(viewer, 'publish_handoff', { handoff: setup.probeHandoff(uniqueName('mcp-refused'), { seq: 1 }) }),
    ).toMatchObject({ refused: 'FORBIDDEN' });
    await expect(overHttp(undefined)).rejects.toThrow(/401|UNAUTHENTICATED/);
    const noSession = await fetch(`${setup.gateway.address}/mcp`, {
      headers: { authorization: `Bearer ${TOKENS.viewer}` },
    });
    expect(noSession.status).toBe(405);
  });

  it('over stdio (baton mcp): publishes a handoff with the publisher credential, and finds it done', async () => {
    const publisher = await overStdio(TOKENS.publisher);
    expect((await publisher.listTools()).tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    const taskId = uniqueName('mcp-stdio');
    const accepted = await call(publisher, 'publish_handoff', { handoff: setup.probeHandoff(taskId, { seq: 1 }) });
    expect(accepted.answer).toMatchObject({ task_id: taskId, message_id: expect.any(String) });
    await waitFor(
      async () => (await call(publisher, 'find_tasks', { q: taskId, status: 'FINISH' })).answer?.total === 1,
      { description: 'the published task to finish, seen through the tool' },
    );
    expect(setup.observed(taskId)).toEqual([1]);
    // An invalid handoff is the API's 400, every issue with its path.
    const invalid = await call(publisher, 'publish_handoff', { handoff: { metadata: {} } });
    expect(invalid.refused).toBe('VALIDATION_FAILED');
  }, 60_000);

  it('publishes with a credential bound to a sender only as that sender, as POST /v1/handoffs does', async () => {
    const bound = await overHttp(TOKENS.boundPublisher);
    const own = setup.probeHandoff(uniqueName('mcp-bound'), { seq: 1 });
    expect((await call(bound, 'publish_handoff', { handoff: own })).answer).toMatchObject({
      task_id: (own.metadata as { task_id: string }).task_id,
    });
    const taskId = uniqueName('mcp-impostor');
    const impostor = setup.probeHandoff(taskId, { seq: 1 }) as { metadata: Record<string, unknown> };
    impostor.metadata.sender_id = 'triage_agent';
    expect(await call(bound, 'publish_handoff', { handoff: impostor })).toMatchObject({
      refused: 'FORBIDDEN',
      text: expect.stringContaining('(at /metadata/sender_id)'),
    });
  });

  it('replays a dead letter with the operator credential, as the API does: audited, and the task then done', async () => {
    const taskId = uniqueName('mcp-replay');
    const outage = join(setup.workDir, 'outage-mcp');
    writeFileSync(outage, 'down');
    const published = await setup.api('POST', '/v1/handoffs', {
      token: TOKENS.publisher,
      body: setup.probeHandoff(taskId, { seq: 1, fail_while_exists: outage }, 0),
    });
    expect(published.status).toBe(202);
    const operator = await overHttp(TOKENS.operator);
    const listed = await waitFor(
      async () => {
        const page = await call(operator, 'list_dead_letters', { task_id: taskId });
        return page.answer?.messages.length === 1 ? page.answer.messages[0] : undefined;
      },
      { description: 'the dead letter, listed through the tool' },
    );
    rmSync(outage);
    const shown = await call(operator, 'show_dead_letter', { topic: listed.topic, id: listed.id });
    expect(shown.answer).toMatchObject({ task_id: taskId, error: { code: 'RETRIES_EXHAUSTED' } });
    const replayed = await call(operator, 'replay_dead_letter', {
      topic: listed.topic,
      id: listed.id,
      reason: 'downstream back, replayed from an assistant',
    });
    expect(replayed.answer).toMatchObject({ dlq_topic: listed.topic, id: listed.id, audit_id: expect.any(String) });
    await waitFor(async () => (await call(operator, 'read_task', { task_id: taskId })).answer?.status === 'FINISH', {
      description: 'the replayed task to finish',
    });
    const audit = (await setup.api('GET', '/v1/audit', { token: TOKENS.operator })).body;
    expect(audit.entries).toContainEqual(
      expect.objectContaining({ actor: 'ops', reason: 'downstream back, replayed from an assistant' }),
    );
  }, 60_000);
});
