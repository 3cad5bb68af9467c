import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';
import { queryString } from '@baton/gateway-api';

/**
 * One call of the gateway's HTTP API with the caller's credential: resolves with the answer's JSON,
 * rejects with the API's error (`{code, message, path?}`). Every tool goes through it, so a tool is
 * allowed exactly what its route allows the credential (a viewer reads, a publisher publishes as
 * the senders its credential is bound to, an operator replays) and refused with the same code.
 */
export type GatewayCall = (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<unknown>;

/** What a refused call carries, as the API answered it. */
export interface GatewayCallError {
  code: string;
  message: string;
  path?: string;
}

const text = (description: string) => z.string().min(1).describe(description);
const optional = (description: string) => text(description).optional();
const page = {
  limit: z.number().int().min(1).max(500).optional().describe('Rows per page, 1-500 (50 by default)'),
  cursor: optional("The previous page's next_cursor"),
};

const segment = encodeURIComponent;

/** The answer as the tool's result: its JSON as structured content, and as text for a model to read. */
function answered(body: unknown): CallToolResult {
  const structured = typeof body === 'object' && body !== null && !Array.isArray(body) ? body : { result: body };
  return {
    content: [{ type: 'text', text: JSON.stringify(body, null, 2) }],
    structuredContent: structured as Record<string, unknown>,
  };
}

/** A refused call as a tool error: the API's code first, so a model and a person read why. */
function refused(error: unknown): CallToolResult {
  const { code = 'GATEWAY_ERROR', message = String(error), path } = error as Partial<GatewayCallError>;
  return {
    isError: true,
    content: [{ type: 'text', text: `${code}: ${message}${path === undefined ? '' : ` (at ${path})`}` }],
    structuredContent: { error: { code, message, ...(path === undefined ? {} : { path }) } },
  };
}

async function calling(call: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    return answered(await call());
  } catch (error) {
    return refused(error);
  }
}

/**
 * An MCP server offering the operator's actions as tools, each one call of the gateway's API
 * through `call`: `find_tasks`, `read_task`, `overview`, `list_dead_letters`, `show_dead_letter`,
 * `replay_dead_letter` (the operator role) and `publish_handoff` (the publisher role). The same
 * server runs over stdio (`baton mcp`, with the credential of the person running it) and over
 * Streamable HTTP (the gateway's `/mcp`, with the credential of each request).
 */
export function operatorMcpServer(call: GatewayCall, version: string): McpServer {
  const server = new McpServer({ name: 'baton', version });
  const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

  server.registerTool(
    'find_tasks',
    {
      title: 'Find tasks',
      description:
        'Tasks newest first, with status (STUCK: executing past a deadline or silent too long), owner, handoff types, agents, ' +
        'error codes and last outcome; every filter given must hold.',
      inputSchema: {
        status: optional('Comma-separated: CREATE, EXECUTING, WAITING, BREAK, FINISH, FAILED, EXPIRED or STUCK'),
        agent: optional('An agent that sent, received, held or reported on the task'),
        handoff_type: optional('e.g. ESCALATION'),
        issue_category: optional('e.g. BILLING'),
        error_code: optional('e.g. RETRIES_EXHAUSTED'),
        from: optional('ISO 8601: tasks with an event at or after it'),
        to: optional('ISO 8601: tasks created at or before it'),
        q: optional("A part of the task's id, a parent's, a correlation_id or a message_id"),
        correlation_id: optional('The tasks of one flow'),
        ...page,
      },
      annotations: readOnly,
    },
    (args) => calling(() => call('GET', `/v1/tasks${queryString(args)}`)),
  );

  server.registerTool(
    'read_task',
    {
      title: "Read a task's story",
      description:
        "A task's status, owner, parents and children, every step across agents in order (outcomes with their handoff type, " +
        'sender, receiver, target and detail; lifecycle messages of negotiated handoffs), and its negotiations.',
      inputSchema: { task_id: text('The task id') },
      annotations: readOnly,
    },
    ({ task_id }) => calling(() => call('GET', `/v1/tasks/${segment(task_id)}`)),
  );

  server.registerTool(
    'overview',
    {
      title: 'What needs attention',
      description:
        'What needs attention (agents down or not live, agents holding stuck tasks, dead letters by topic), the agents with ' +
        'their lag, dead letters by code and topic, and handoff outcomes per minute.',
      inputSchema: {},
      annotations: readOnly,
    },
    () => calling(() => call('GET', '/v1/overview')),
  );

  server.registerTool(
    'list_dead_letters',
    {
      title: 'List dead letters',
      description:
        'Dead letters newest first, across every DLQ topic or one: each with its error code, task, handoff type, attempts ' +
        'and replays.',
      inputSchema: {
        topic: optional('One DLQ topic, e.g. baton.agent.triage_agent.inbox.dlq'),
        agent: optional("One agent's DLQ"),
        error_code: optional('e.g. RETRIES_EXHAUSTED'),
        task_id: optional('The task'),
        handoff_type: optional('e.g. ESCALATION'),
        from: optional('ISO 8601: dead-lettered at or after'),
        to: optional('ISO 8601: dead-lettered before'),
        ...page,
      },
      annotations: readOnly,
    },
    ({ topic, agent, ...filters }) =>
      calling(() =>
        topic === undefined
          ? call('GET', `/v1/dead-letters${queryString({ agent, ...filters })}`)
          : call('GET', `/v1/dlq/${segment(topic)}/messages${queryString(filters)}`),
      ),
  );

  server.registerTool(
    'show_dead_letter',
    {
      title: 'Show a dead letter',
      description:
        'One dead letter: the error (code, message, stage, attempts, source topic and offset), its headers, its decoded ' +
        'body (personal fields masked unless the credential may see them) and its replays.',
      inputSchema: { topic: text('The DLQ topic'), id: text("The dead letter's id, as listed") },
      annotations: readOnly,
    },
    ({ topic, id }) => calling(() => call('GET', `/v1/dlq/${segment(topic)}/messages/${segment(id)}`)),
  );

  server.registerTool(
    'replay_dead_letter',
    {
      title: 'Replay a dead letter',
      description:
        'Sends a dead letter again to its source topic (or an allowed one), recorded in the audit trail with the reason. ' +
        'Needs the operator role; a message refused for a trust reason (signature, sender, policy, personal data) is not ' +
        'replayed (REPLAY_TRUST_REFUSED).',
      inputSchema: {
        topic: text('The DLQ topic'),
        id: text("The dead letter's id"),
        reason: text('Why it is replayed: kept in the audit trail'),
        target_topic: optional('Another topic the gateway allows; the source topic by default'),
        new_message_id: z.boolean().optional().describe('Send it under a new message_id, as a new message'),
      },
      annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ topic, id, ...body }) =>
      calling(() => call('POST', `/v1/dlq/${segment(topic)}/messages/${segment(id)}/replay`, body)),
  );

  server.registerTool(
    'publish_handoff',
    {
      title: 'Publish a handoff',
      description:
        'Publishes a handoff message (metadata, context, payload, instructions) to the router, validated first. Needs ' +
        'the publisher role, and a credential bound to senders publishes only as them. The gateway fills message_id, ' +
        'timestamp, protocol_version and priority when absent.',
      inputSchema: { handoff: z.record(z.string(), z.unknown()).describe('The handoff message as JSON') },
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ handoff }) => calling(() => call('POST', '/v1/handoffs', handoff)),
  );

  return server;
}
